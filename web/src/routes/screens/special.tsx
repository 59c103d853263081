import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.13 special collection. Its stories arrive with the news feature (a later issue). */
export default function Special() {
  return <StoryListScreen />;
}
