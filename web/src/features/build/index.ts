/**
 * New builds (SPEC §4.13, D28): the build watch that notices a new deployment, and the
 * full reload of a path whose lazy chunk failed to load (§8.4).
 */
import type { BuildWatch } from './buildWatch';

export {
  BUILD_POLL_INTERVAL_MS,
  MANIFEST_DELAY_MS,
  createBuildWatch,
  fetchBuildManifest,
  isSlowConnection,
  type BuildWatch,
  type BuildWatchOptions,
} from './buildWatch';
export {
  RELOAD_GUARD_MS,
  RELOAD_STORAGE_KEY,
  browserReloadDeps,
  isChunkLoadError,
  reloadForFailedChunk,
  type ReloadDeps,
} from './chunkReload';

/** What this feature adds to the app's services (lib/services.ts). */
declare module '../../lib/services' {
  interface Services {
    buildWatch: BuildWatch | null;
  }
}
