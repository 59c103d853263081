import { Screen } from '../../components/Screen';
import { FollowingTagsContent, SettingsLinks, TopicsFeedSection } from '../../features/reader';
import { loadMessages } from '../../i18n';

/** The mutes’ and tabs’ messages are a part of their own (D429). */
export const ready = loadMessages('settings');

/** SPEC §2.17 followed tags: the reader's tags and categories (D263), then their stories (D272). */
export default function SettingFollowingTags() {
  return (
    <Screen>
      <FollowingTagsContent />
      <TopicsFeedSection />
      <SettingsLinks />
    </Screen>
  );
}
