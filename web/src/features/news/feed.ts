/**
 * The news feature's second public entry: the paging feed alone, with its ad slots (D345).
 * Home loads it lazily for its latest list, once the reader comes near it: through the
 * index, home's first load would bring the ads' code and styles, which its first screen
 * never shows (D425).
 */
export { NewsFeed } from './components/NewsFeed';
