/** Where the app keeps, in localStorage, the reader's state for an offline start (D393). */
export const READER_STATE_KEY = 'lw:reader-state';
