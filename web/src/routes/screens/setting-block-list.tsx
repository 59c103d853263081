import { BlockListScreen } from '../../features/reader';
import { loadMessages } from '../../i18n';

/** The mutes’ and tabs’ messages are a part of their own (D429). */
export const ready = loadMessages('settings');

/** §2.16 blocked publishers. */
export default function SettingBlockList() {
  return <BlockListScreen />;
}
