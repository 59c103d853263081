/**
 * SPEC §3.15–3.17, §5.7, §9.11: the report rules, from the file the server reads too
 * (web/src/shared/report.json, D330).
 */
import rules from '../../shared/report.json';

export type FieldType = 'string' | 'number';
export interface FieldRule {
  type: FieldType;
  oneOf?: ReadonlyArray<string | number>;
  default?: string | number;
  stack?: boolean;
}

export const REPORT_RULES = rules as unknown as {
  appId: number;
  source: number;
  os: number;
  nonceLength: number;
  userAgentMax: number;
  adnId: number;
  queue: { debounceMs: number; limit: number; batch: number; failLimit: number };
  isBase: { coreFunction: number; coreBehavior: number };
  coreFunctions: Record<string, string>;
  maxEventsPerRequest: number;
  maxStringChars: number;
  maxStackChars: number;
  networkTypes: string[];
  botUserAgent: string[];
  property: Record<string, FieldType>;
  events: Record<string, Record<string, FieldRule>>;
};

export const QUEUE_LIMITS = REPORT_RULES.queue;
export type QueueLimits = typeof QUEUE_LIMITS;
