import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.4 latest news. Its stories arrive with the news feature (a later issue). */
export default function Latest() {
  return <StoryListScreen />;
}
