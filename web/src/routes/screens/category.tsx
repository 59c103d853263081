import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.14 category. Its stories arrive with the news feature (a later issue). */
export default function Category() {
  return <StoryListScreen />;
}
