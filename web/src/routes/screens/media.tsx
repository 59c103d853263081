import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.12 publisher page. Its stories arrive with the news feature (a later issue). */
export default function Media() {
  return <StoryListScreen />;
}
