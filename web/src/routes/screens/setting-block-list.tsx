import { BlockListScreen } from '../../features/reader';

/** §2.16 blocked publishers. */
export default function SettingBlockList() {
  return <BlockListScreen />;
}
