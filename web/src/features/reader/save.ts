/**
 * The reader feature's second public entry: the news card's Save button alone (D266). The
 * app loads it lazily when a card first shows it (app/App.tsx). Through index.ts it would
 * cost too much: a dynamic import of the index loads every reader screen, and a static one
 * puts every module the index names into the entry chunk (D415, D419).
 */
export { CardSaveButton } from './components/CardSaveButton';
