import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.15 location. Its stories arrive with the news feature (a later issue). */
export default function Location() {
  return <StoryListScreen />;
}
