import { Screen } from '../../components/Screen';
import { ChannelsEditor, SettingsLinks } from '../../features/reader';

/** SPEC §2.18 explore channels: which tabs home shows, and their order (D264). */
export default function SettingExploreChannels() {
  return (
    <Screen>
      <ChannelsEditor />
      <SettingsLinks />
    </Screen>
  );
}
