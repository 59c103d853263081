/**
 * The news model: stories and publishers as the read API answers them (docs/api-reading.md)
 * and as the app reads them: types, readers, query keys, the derived values of SPEC §3 and
 * the display helpers (times, highlighting). Every feature that shows, saves or lists
 * news items reads them from here; `features/news` holds the reading hooks and components.
 */
export * from './model';
export * from './reason';
export * from './api';
export * from './format';
