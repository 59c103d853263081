import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useCallback, useState } from 'react';
import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { useServices } from '../../../lib/services';
import { Section } from '../../../components/Screen';
import { isApiError } from '../../../lib/api';
import { localizePath } from '../../../lib/locale';
import { usePopup } from '../../../components/popup';
import {
  accountQueryKey,
  downloadJson,
  exportMyData,
  fetchAccount,
  fetchSessions,
  MY_DATA_FILE_NAME,
  providerOfIdentity,
  revokeOtherSessions,
  revokeSession,
  sessionsQueryKey,
  type ActiveSession,
  type LinkedIdentity,
} from '../../user';
import { appConfigKey, fetchAppConfig } from '../../user';
import { signInFailureText, useSignInWindow } from '../hooks/useSignInWindow';
import { PROVIDER_NAMES, SIGN_IN_PROVIDERS, type SignInOutcome } from '../../user';
import { PROVIDER_ICONS } from './providerIcons';

function useDate() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (ms: number) => format.format(new Date(ms));
}

function errorText(error: unknown, fallback: string): string {
  return isApiError(error) && error.message ? error.message : fallback;
}

/** A load that failed: says so, with a way to try again. */
function LoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="account__error" role="alert">
      <p>{t('Account_LoadError')}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('News_Retry')}
      </button>
    </div>
  );
}

/** Linked providers, and "Link Google/Facebook" for a configured one not linked yet. */
function LinkedProviders({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const popup = usePopup();
  const formatDate = useDate();
  const [failure, setFailure] = useState<string | null>(null);
  const account = useQuery({ queryKey: accountQueryKey, queryFn: () => fetchAccount(api) });
  const config = useQuery({
    queryKey: appConfigKey,
    queryFn: () => fetchAppConfig(api),
    staleTime: Infinity,
  });

  async function onOutcome(outcome: SignInOutcome, provider: 'google' | 'facebook') {
    if (outcome.kind === 'message' && !outcome.message.ok) {
      setFailure(signInFailureText(t, outcome.message, provider));
      return;
    }
    // Linked, or the window closed without a word: the list says which.
    const { data } = await account.refetch();
    const linked = data?.identities.some((i) => providerOfIdentity(i) === provider);
    if (linked) {
      popup.show({
        text: t('Account_Linked', { provider: PROVIDER_NAMES[provider] }),
        kind: 'success',
      });
    }
    void queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
  }
  const { status, start } = useSignInWindow(onOutcome);

  if (account.isPending) return <p role="status">{t('Web_Loading')}</p>;
  if (account.isError) return <LoadError onRetry={() => void account.refetch()} />;

  const identities = account.data.identities;
  const linked = new Set(identities.map(providerOfIdentity));
  const linkable = SIGN_IN_PROVIDERS.filter(
    (provider) => !linked.has(provider) && config.data?.sign_in?.[provider] === true,
  );

  return (
    <>
      {identities.length === 0 ? (
        <p className="account__empty">{t('Account_ProvidersEmpty')}</p>
      ) : (
        <ul className="account__list">
          {identities.map((identity: LinkedIdentity) => {
            const provider = providerOfIdentity(identity);
            return (
              <li key={`${identity.type}-${identity.linked_at}`} className="account__item">
                {provider && PROVIDER_ICONS[provider]}
                <div>
                  <p className="account__item-title">
                    {provider ? PROVIDER_NAMES[provider] : identity.type}
                  </p>
                  {(identity.email || identity.name) && (
                    <p className="account__item-detail">{identity.email || identity.name}</p>
                  )}
                  <p className="account__item-detail">
                    {t('Account_LinkedSince', { date: formatDate(identity.linked_at) })}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {linkable.length > 0 && (
        <div className="account__actions">
          {linkable.map((provider) => (
            <button
              key={provider}
              type="button"
              className="button provider"
              onClick={() => {
                setFailure(null);
                start(provider, { returnTo, link: true });
              }}
            >
              {PROVIDER_ICONS[provider]}
              {t('Account_Link', { provider: PROVIDER_NAMES[provider] })}
            </button>
          ))}
        </div>
      )}
      <div role="status" className="account__status">
        {status.kind === 'waiting' && t('SignIn_Waiting')}
        {status.kind === 'leaving' && t('SignIn_PopupBlocked')}
      </div>
      {failure && (
        <p role="alert" className="account__failure">
          {failure}
        </p>
      )}
    </>
  );
}

/** Active sessions: this device marked, the others revocable one by one or all at once. */
function Sessions() {
  const { t } = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const popup = usePopup();
  const formatDate = useDate();
  const sessions = useQuery({ queryKey: sessionsQueryKey, queryFn: () => fetchSessions(api) });
  const revoke = useMutation({
    mutationFn: (target: { id: number } | 'others') =>
      target === 'others' ? revokeOtherSessions(api) : revokeSession(api, target.id),
    onSuccess: (_answer, target) => {
      popup.show({
        text: t(target === 'others' ? 'Account_RevokedOthers' : 'Account_RevokedOne'),
        kind: 'success',
      });
    },
    onError: (error) =>
      popup.show({ text: errorText(error, t('Web_UnknownError')), kind: 'error' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });

  if (sessions.isPending) return <p role="status">{t('Web_Loading')}</p>;
  if (sessions.isError) return <LoadError onRetry={() => void sessions.refetch()} />;

  const others = sessions.data.filter((s) => !s.current);
  return (
    <>
      <ul className="account__list">
        {sessions.data.map((session: ActiveSession) => (
          <li key={session.id} className="account__item">
            <div>
              <p className="account__item-title">
                {session.label || t('Account_UnknownDevice')}
                {session.current && (
                  <span className="account__badge">{t('Account_ThisDevice')}</span>
                )}
              </p>
              <p className="account__item-detail">
                {t('Account_SessionStarted', { date: formatDate(session.created_at) })}
              </p>
            </div>
            {!session.current && (
              <button
                type="button"
                className="button"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate({ id: session.id })}
              >
                {t('Account_Revoke')}
                <span className="visually-hidden">
                  : {session.label || t('Account_UnknownDevice')}, {formatDate(session.created_at)}
                </span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {others.length === 0 ? (
        <p className="account__empty">{t('Account_NoOtherSessions')}</p>
      ) : (
        <div className="account__actions">
          <button
            type="button"
            className="button"
            disabled={revoke.isPending}
            onClick={() => revoke.mutate('others')}
          >
            {t('Account_RevokeOthers')}
          </button>
        </div>
      )}
    </>
  );
}

function DownloadData() {
  const { t } = useTranslation();
  const { api } = useServices();
  const popup = usePopup();
  const download = useMutation({
    mutationFn: () => exportMyData(api),
    onSuccess: (data) => downloadJson(data, MY_DATA_FILE_NAME),
    onError: (error) =>
      popup.show({ text: errorText(error, t('Web_UnknownError')), kind: 'error' }),
  });
  return (
    <>
      <p className="account__hint">{t('Account_DataHint')}</p>
      <div className="account__actions">
        <button
          type="button"
          className="button"
          aria-busy={download.isPending}
          disabled={download.isPending}
          onClick={() => download.mutate()}
        >
          {download.isPending ? t('Account_Preparing') : t('Account_Download')}
        </button>
      </div>
    </>
  );
}

/** The confirmation: what goes, that it cannot be undone; Cancel first. */
function DeleteDialog(props: {
  onCancel: () => void;
  onConfirm: () => void;
  busy: boolean;
  error: string | null;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      title={t('Account_DeleteTitle')}
      confirmLabel={t('Account_DeleteConfirm')}
      {...props}
    >
      <p>{t('Account_DeleteWhat')}</p>
      <ul className="account__delete-list">
        <li>{t('Account_DeleteProfile')}</li>
        <li>{t('Account_DeleteSignIns')}</li>
        <li>{t('Account_DeleteSessions')}</li>
        <li>{t('Account_DeleteReading')}</li>
      </ul>
      <p>{t('Account_DeleteFinal')}</p>
    </ConfirmDialog>
  );
}

function DeleteAccount({ onDeleted }: { onDeleted: () => void }) {
  const { t } = useTranslation();
  const { session, queryClient } = useServices();
  const [confirming, setConfirming] = useState(false);
  const cancel = useCallback(() => setConfirming(false), []);
  const remove = useMutation({
    mutationFn: () => session.deleteAccount(),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: accountQueryKey });
      setConfirming(false);
      onDeleted();
    },
  });
  return (
    <>
      <p className="account__hint">{t('Account_DeleteHint')}</p>
      <div className="account__actions">
        <button
          type="button"
          className="button button--danger"
          aria-haspopup="dialog"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
        >
          {t('Account_Delete')}
        </button>
      </div>
      {confirming && (
        <DeleteDialog
          busy={remove.isPending}
          error={remove.isError ? errorText(remove.error, t('Web_UnknownError')) : null}
          onCancel={cancel}
          onConfirm={() => remove.mutate()}
        />
      )}
    </>
  );
}

/**
 * The account section of /user (issue 17): linked providers, active sessions, download
 * my data, delete my account. `returnTo` is this page (the link flow's page mode comes
 * back to it); `onDeleted` runs once the new guest is saved.
 */
/**
 * D337: an operator of this server (`--admin-emails`) finds the way to /admin here; the
 * account call says who is one. Nothing shows for anyone else.
 */
function OperatorLink() {
  const { t } = useTranslation();
  const { api } = useServices();
  const { locale } = useRouteHandle();
  const account = useQuery({ queryKey: accountQueryKey, queryFn: () => fetchAccount(api) });
  if (!account.data?.operator) return null;
  return (
    <Section title={t('Account_Operator')}>
      <p>
        <Link to={localizePath(locale, '/admin')}>{t('Account_OperatorLink')}</Link>
      </p>
    </Section>
  );
}

export function AccountSection({
  returnTo,
  onDeleted,
}: {
  returnTo: string;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="account">
      <OperatorLink />
      <Section title={t('Account_Providers')}>
        <LinkedProviders returnTo={returnTo} />
      </Section>
      <Section title={t('Account_Sessions')}>
        <Sessions />
      </Section>
      <Section title={t('Account_Data')}>
        <DownloadData />
      </Section>
      <Section title={t('Account_DeleteSection')}>
        <DeleteAccount onDeleted={onDeleted} />
      </Section>
    </div>
  );
}
