/**
 * SPEC §6.4: the notification permission status is reported (granted 1, otherwise 0).
 * The reporter (web/src/features/report) is being built in parallel and will export
 * `reportPermissionStatus(granted: boolean)`; until then this is the one place to wire it
 * (docs/issue-19-status.md). It records the last status so tests can read it.
 */
let last: 0 | 1 | null = null;

export function reportPermission(granted: boolean): void {
  last = granted ? 1 : 0;
}

/** What was last reported (tests). */
export function lastReportedPermission(): 0 | 1 | null {
  return last;
}
