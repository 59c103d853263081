/**
 * The reader's saved stories: which are saved, and Save / Unsave. Apart from the other
 * hooks, without TanStack's mutation code: every news card's Save button needs this, on
 * every list (D429).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n';
import { useServices } from '../../lib/services';
import {
  COLLECT_LIST_PATH,
  COLLECT_PATH,
  SAVED_IDS_SIZE,
  UNCOLLECT_PATH,
  type ListItems,
  type SavedList,
  type SavedState,
} from './api';
import {
  dropFromList,
  readerKey,
  useReaderKey,
  writeOptimistically,
  type OptimisticWrite,
} from './cache';

/** A refused write has already put the cache back and said so (`writeOptimistically`). */
const ignore = () => undefined;

/**
 * The ids of the reader's saved stories, once per session: the newest
 * {@link SAVED_IDS_SIZE} saves (enough to mark a story as saved; older saves show as
 * not saved until toggled, which saving again keeps idempotent). Toggling keeps it right.
 */
export function useSavedIds() {
  const services = useServices();
  const { userId, ready } = useReaderKey();
  return useQuery({
    queryKey: readerKey(userId, 'savedIds'),
    queryFn: async () => {
      const answer = await services.api.post<SavedList>(COLLECT_LIST_PATH, {
        size: SAVED_IDS_SIZE,
      });
      return (answer?.list ?? []).map((item) => item.news_id);
    },
    staleTime: Infinity,
    enabled: ready,
  });
}

/** Whether a story is saved (undefined while unknown) and a toggle for it. */
export function useSaved(newsId: number) {
  const { t } = useTranslation();
  const services = useServices();
  const { userId } = useReaderKey();
  const ids = useSavedIds();
  const idsKey = readerKey(userId, 'savedIds');
  const listKey = readerKey(userId, 'list', 'saved');
  const queryClient = useQueryClient();
  const write: OptimisticWrite<boolean> = {
    keys: () => [idsKey, listKey],
    apply: (client, save) => {
      client.setQueryData<number[]>(idsKey, (list = []) =>
        save ? [newsId, ...list.filter((id) => id !== newsId)] : list.filter((id) => id !== newsId),
      );
      if (!save) dropFromList<ListItems['saved']>(client, listKey, (i) => i.news_id === newsId);
    },
    // Offline, the change waits in the outbox and the story shows as saved meanwhile.
    call: (save) =>
      services.outbox.send<SavedState>(`save:${newsId}`, save ? COLLECT_PATH : UNCOLLECT_PATH, {
        news_id: newsId,
      }),
    failure: t('Reader_SaveFailed'),
    settle: (client, _save, answer) => {
      const saved = (answer as SavedState | undefined)?.saved;
      if (typeof saved === 'boolean') {
        client.setQueryData<number[]>(idsKey, (list = []) =>
          saved
            ? [newsId, ...list.filter((id) => id !== newsId)]
            : list.filter((id) => id !== newsId),
        );
      }
      void client.invalidateQueries({ queryKey: listKey });
    },
  };
  const change = (save: boolean) =>
    void writeOptimistically(queryClient, write, save).catch(ignore);
  const saved = ids.data ? ids.data.includes(newsId) : undefined;
  return {
    saved,
    toggle: () => change(!saved),
    /** Save or unsave outright (a list's "Unsave" needs no saved state to be known). */
    setSaved: change,
  };
}
