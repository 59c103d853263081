import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.5 top news. Its stories arrive with the news feature (a later issue). */
export default function TopNews() {
  return <StoryListScreen />;
}
