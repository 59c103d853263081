/**
 * The account page's calls (issue 17): linked providers, active sessions and revoking
 * them, "download my data". Deleting the account is a session flow (it hands back a new
 * guest): see `session.deleteAccount`.
 */
import type { ApiClient } from '../../lib/api';
import type { components } from '../../lib/api/schema';
import { AccountType } from './model';
import type { SignInProvider } from './signInWindow';

type Schemas = components['schemas'];

export type AccountInfo = Schemas['AccountInfo'];
export type LinkedIdentity = Schemas['LinkedIdentity'];
export type ActiveSession = Schemas['ActiveSession'];

export const accountQueryKey = ['account'] as const;
export const sessionsQueryKey = ['account', 'sessions'] as const;

/** The file "Download my data" offers. */
export const MY_DATA_FILE_NAME = 'localwire-my-data.json';

/** §3.2 account type of a provider's identities. */
export const PROVIDER_ACCOUNT_TYPE: Record<SignInProvider, number> = {
  google: AccountType.google,
  facebook: AccountType.facebook,
};

export function providerOfIdentity(identity: Pick<LinkedIdentity, 'type'>): SignInProvider | null {
  if (identity.type === AccountType.google) return 'google';
  if (identity.type === AccountType.facebook) return 'facebook';
  return null;
}

export function fetchAccount(api: ApiClient): Promise<AccountInfo> {
  return api.post<AccountInfo>('/user/account');
}

export async function fetchSessions(api: ApiClient): Promise<ActiveSession[]> {
  const answer = await api.post<Schemas['SessionList']>('/user/sessions');
  return answer.list;
}

export function revokeSession(api: ApiClient, sessionId: number): Promise<Schemas['Revoked']> {
  return api.post<Schemas['Revoked']>('/user/sessions/revoke', { session_id: sessionId });
}

export function revokeOtherSessions(api: ApiClient): Promise<Schemas['Revoked']> {
  return api.post<Schemas['Revoked']>('/user/sessions/revoke', { all_others: true });
}

export function exportMyData(api: ApiClient): Promise<unknown> {
  return api.post<unknown>('/user/export');
}

/** Offers JSON as a file download (an object URL on a temporary link). */
export function downloadJson(data: unknown, fileName: string, doc: Document = document): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  doc.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // After the click has handed the file over; revoking at once can cancel it in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
