/**
 * The built client's index.html with the page's initial parameters and CSRF token injected (docs/architecture.md, "The
 * tree page", step 1). The template is read once per build (its mtime is checked, so a rebuild is picked up without a
 * restart), and the app's page says which build it is (client-build.ts).
 */
import path from 'node:path';
import type { InitialParams } from '#shared/api-types.ts';
import { builtPage } from './client-build.ts';
import { FEED_PATH, FEED_TITLE } from './feed.ts';
import { escapeMarkup } from './markup.ts';

const FALLBACK = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gallery Tree</title></head>
<body><p>The client is not built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds it).</p></body></html>`;

/** JSON safe to place inside a <script> element: no '<' can close it. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Every page offers the Atom feed of new pieces (server/http/feed.ts). */
const FEED_LINK = `<link rel="alternate" type="application/atom+xml" title="${FEED_TITLE}" href="${FEED_PATH}">`;

export function createIndexRenderer(clientDir: string, entry = 'index.html') {
  const file = path.join(clientDir, entry);
  // The app's page says which build it is, so that it can tell when the server hands out another (client-build.ts).
  const buildMeta = entry === 'index.html';

  /**
   * `extraHead`: already escaped tags for this page (the Open Graph tags of an art details link); `bodyStart`: markup
   * that opens the body, ahead of the app's root (the tree's first sketch).
   */
  return function render(params: InitialParams, csrfToken: string, extraHead = '', bodyStart = ''): string {
    const built = builtPage(file);
    const head =
      `<meta name="csrf-token" content="${escapeMarkup(csrfToken)}">` +
      (built && buildMeta ? `<meta name="client-build" content="${built.id}">` : '') +
      `<script id="initial-params" type="application/json">${jsonForScript(params)}</script>` +
      FEED_LINK +
      extraHead;
    const page = (built?.html ?? FALLBACK).replace('</head>', `${head}</head>`);
    return bodyStart ? page.replace('<div id="root">', `${bodyStart}<div id="root">`) : page;
  };
}
