import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n';
import { useServices } from '../../../lib/services';
import { useErrorText } from '../../news';
import { FOLLOWS_OPML_PATH, type FollowsOpml } from '../api';
import '../reader.css';

/** Hands the browser a file to save, named as the server named it. */
function save({ filename, opml }: FollowsOpml) {
  const url = URL.createObjectURL(new Blob([opml], { type: 'text/x-opml;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * "Export as OPML" (D377): what the reader follows, publishers and topics, as a file of
 * this site's feeds that a feed reader imports.
 */
export function ExportOpml() {
  const { t } = useTranslation();
  const { api } = useServices();
  const exported = useMutation({
    mutationFn: () => api.post<FollowsOpml>(FOLLOWS_OPML_PATH, {}),
    onSuccess: save,
  });
  const error = useErrorText(exported.error);
  return (
    <div className="export-opml">
      <button
        type="button"
        className="button"
        disabled={exported.isPending}
        aria-describedby="export-opml-hint"
        onClick={() => exported.mutate()}
      >
        {t('Feed_OpmlExport')}
      </button>
      <p id="export-opml-hint" className="export-opml__hint">
        {t('Feed_OpmlExportHint')}
      </p>
      {exported.isError && (
        <p role="alert" className="export-opml__error">
          {error}
        </p>
      )}
    </div>
  );
}
