/**
 * The slot for the reader's own actions on every news card (D266). It lives here, in the
 * shared components, so the app can fill it (with `reader`'s Save) without loading the
 * news feature into the first screen's script, and `news` never imports `reader`.
 */
import { createContext, type ReactNode } from 'react';

/** What a card's actions need to know about its story. */
export interface CardStory {
  news_id: number;
  title: string;
}

export type CardActions = (story: CardStory) => ReactNode;

/** Null (the default): cards have no actions, as on the server-written first screens. */
export const CardActionsContext = createContext<CardActions | null>(null);
