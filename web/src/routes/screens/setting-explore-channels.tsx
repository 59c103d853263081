import { Screen } from '../../components/Screen';
import { ChannelsEditor, SettingsLinks } from '../../features/reader';
import { loadMessages } from '../../i18n';

/** The mutes’ and tabs’ messages are a part of their own (D429). */
export const ready = loadMessages('settings');

/** SPEC §2.18 explore channels: which tabs home shows, and their order (D264). */
export default function SettingExploreChannels() {
  return (
    <Screen>
      <ChannelsEditor />
      <SettingsLinks />
    </Screen>
  );
}
