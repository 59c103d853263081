/**
 * SPEC §6.4: the notification permission status is reported (granted 1, otherwise 0),
 * through the app's one reporter (`features/report`, D334). It also records the last
 * status, which the tests read.
 */
import { reportPermissionStatus } from '../report';

let last: 0 | 1 | null = null;

export function reportPermission(granted: boolean): void {
  last = granted ? 1 : 0;
  reportPermissionStatus(granted);
}

/** What was last reported (tests). */
export function lastReportedPermission(): 0 | 1 | null {
  return last;
}
