/**
 * The client's entry: read (or, under the dev server, fetch) the page's initial parameters and CSRF token, then
 * render the app. If even that fails the page says so plainly instead of staying blank.
 */
// First, so that on /observe the tree's snapshot is on its way before the rest is evaluated.
import './tree/early-start.ts';
import { createRoot } from 'react-dom/client';
import { loadBoot } from './api/initial-params.ts';
import { App } from './app/app.tsx';
import { reloadWhenALazyModuleFails } from './app/client-updates.ts';
import { firstViewShown } from './app/module-loader.ts';
import { TREE_PAGE_PATH } from '#shared/tree/tree-url.ts';
import './styles/global.css';

// No <StrictMode>: its double mount tears down and re-creates the WebGL application of @pixi/react 8, which loses
// its context in development. Production behaviour is unaffected either way.
reloadWhenALazyModuleFails();
// Off the tree page, the first view is the page as loaded; on it, the tree's first frame (decision 043).
if (window.location.pathname !== TREE_PAGE_PATH) {
  if (document.readyState === 'complete') firstViewShown();
  else window.addEventListener('load', firstViewShown, { once: true });
}
const container = document.getElementById('root')!;
const root = createRoot(container);

loadBoot().then(
  () => root.render(<App />),
  (error: unknown) => {
    root.render(
      <main className="boot-error">
        <h1>gallery tree.</h1>
        <p>{error instanceof Error ? error.message : 'The site could not start.'}</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </main>,
    );
  },
);
