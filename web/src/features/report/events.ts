/**
 * §5.7 for one event, as the server does it (`domain::report::clean_event`; both run
 * web/src/shared/fixtures/report-validation.json): the name trimmed and among the models
 * ('No event model'), strings trimmed and capped, numbers parsed (0 when they fail,
 * §5.4), fixed values checked, fields outside the model dropped.
 */
import { REPORT_RULES, type FieldRule } from './rules';

export type EventFields = Record<string, string | number>;
export type CleanResult =
  { ok: true; event: string; fields: EventFields } | { ok: false; error: string };

function cap(s: string, max: number): string {
  return Array.from(s.trim()).slice(0, max).join('');
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === '') return 0;
    const n = Number(t);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

function toText(v: unknown, max: number): string {
  if (typeof v === 'string') return cap(v, max);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

function clean(rule: FieldRule, v: unknown): string | number {
  const max = rule.stack ? REPORT_RULES.maxStackChars : REPORT_RULES.maxStringChars;
  return rule.type === 'number' ? toNumber(v) : toText(v, max);
}

export function cleanEvent(raw: unknown): CleanResult {
  const obj = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : null;
  if (!obj)
    return { ok: false, error: 'No event model: an event is an object with an event name.' };
  const name = typeof obj.event === 'string' ? obj.event.trim() : '';
  const model = Object.prototype.hasOwnProperty.call(REPORT_RULES.events, name)
    ? REPORT_RULES.events[name]
    : undefined;
  if (!model) return { ok: false, error: `No event model: ${cap(name, 64)}` };
  const fields: EventFields = {};
  for (const [field, rule] of Object.entries(model)) {
    const given = obj[field];
    const value =
      given === undefined || given === null
        ? (rule.default ?? clean(rule, undefined))
        : clean(rule, given);
    if (rule.oneOf && rule.oneOf.length > 0 && !rule.oneOf.includes(value)) {
      const allowed = rule.oneOf.map((a) => JSON.stringify(a)).join(', ');
      return { ok: false, error: `${name}.${field} must be one of ${allowed}.` };
    }
    fields[field] = value;
  }
  return { ok: true, event: name, fields };
}

/** §1.8: events are not sent from bot user agents (an empty one counts as a bot). */
export function isBotUserAgent(ua: string): boolean {
  const lower = ua.trim().toLowerCase();
  if (lower === '') return true;
  return REPORT_RULES.botUserAgent.some((word) => lower.includes(word));
}

/** ★ Do-Not-Track or Global Privacy Control turn reporting off entirely. */
export function privacyRefuses(nav: {
  doNotTrack?: string | null;
  globalPrivacyControl?: boolean;
}): boolean {
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}
