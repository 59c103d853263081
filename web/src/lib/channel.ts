/** SPEC §3.14 acquisition channel and the user_type of POST /user/init (§7.1). */

export const AD_CHANNELS = ['googleadwords_int', 'metaweb_int', 'tiktok_int', 'optimobi'] as const;

/** Short codes that may arrive in `c` as the start-up channel (SPEC §2.20, §3.14). */
const SHORT_CODES: Record<string, string> = { GG: 'googleadwords_int', FB: 'metaweb_int' };

export function acquisitionChannel(params: URLSearchParams): string {
  if (params.get('gclid') || params.get('gbraid') || params.get('wbraid')) {
    return 'googleadwords_int';
  }
  if (params.get('fbclid')) return 'metaweb_int';
  if (params.get('ttclid')) return 'tiktok_int';
  if (params.get('sid')) return 'optimobi';
  const short = SHORT_CODES[(params.get('c') ?? '').trim().toUpperCase()];
  if (short) return short;
  return params.get('utm_source')?.trim() ?? '';
}

/** 1 when the visit came from an ad channel, else 0. */
export function userTypeForChannel(channel: string): 0 | 1 {
  return (AD_CHANNELS as readonly string[]).includes(channel) ? 1 : 0;
}
