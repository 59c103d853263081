import { Screen } from '../../components/Screen';
import { FollowingTagsContent, SettingsLinks } from '../../features/reader';

/** SPEC §2.17 followed tags: the reader's tags and categories (D263). */
export default function SettingFollowingTags() {
  return (
    <Screen>
      <FollowingTagsContent />
      <SettingsLinks />
    </Screen>
  );
}
