/**
 * The server's first-screen renderer (D424), built into one classic script
 * (`dist/.server/first-screen.js`, `vite.ssr.config.ts`) that crates/render runs in QuickJS:
 * it defines `SSR.render(json) → Promise<string>` and `__tick()`.
 * The engine's missing parts come first, then the app.
 */
import './engine';
import { renderFirstScreen, type FirstScreenInput } from './render';

(globalThis as Record<string, unknown>).SSR = {
  render: (json: string) => renderFirstScreen(JSON.parse(json) as FirstScreenInput),
};
