export { SearchForm } from './SearchForm';
export { SearchScreen } from './SearchScreen';
