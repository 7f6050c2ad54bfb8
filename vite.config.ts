/**
 * The client build (docs/architecture.md, Layers): root client/, output dist/client, served by the Fastify app, with
 * the staff dashboard (/admin/dashboard) as a second entry. In development Vite on 5173 proxies the API to the app.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('./', import.meta.url));
// The API server's port: the same PORT variable `npm run dev` gives it.
const apiServer = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

/**
 * Development only: the dev server answers /admin/dashboard and /admin/dashboard/* with the dashboard's own page
 * (client/admin/index.html), as the app server does in production, instead of falling back to the app's index.html.
 */
function adminDashboardInDev(): Plugin {
  const dashboardPath = /^\/admin\/dashboard(\/[^?]*)?(\?.*)?$/;
  return {
    name: 'admin-dashboard-in-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const match = req.url ? dashboardPath.exec(req.url) : null;
        if (match) req.url = `/admin/index.html${match[2] ?? ''}`;
        next();
      });
    },
  };
}

/**
 * Build only: the tree's early start (client/tree/early-start.ts) is an entry of its own, and the app's page loads it
 * with an async script tag ahead of the app's: a small module needs no React to run, so on a visit to /observe the snapshot
 * is asked for, and its first sketch drawn, while the rest of the app is still arriving. (The app's entry imports it
 * too, which is how it runs under the dev server.)
 */
function earlyTreeStart(): Plugin {
  return {
    name: 'early-tree-start',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        if (!context.bundle || context.path !== '/index.html') return;
        const early = Object.values(context.bundle).find(
          (file) => file.type === 'chunk' && file.isEntry && file.name === 'early',
        );
        if (!early) return;
        // async: it runs as soon as it has arrived, without waiting for the page to be parsed (it waits for <body>).
        return [
          {
            tag: 'script',
            attrs: { type: 'module', async: true, crossorigin: true, src: `/${early.fileName}` },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}

/** `code` with each `[from, to]` replaced once; the build stops when PixiJS no longer says `from` (its update moved it). */
function replaceAll(
  context: { error: (message: string) => never },
  code: string,
  module: string,
  replacements: [string, string][],
): string {
  return replacements.reduce((text, [from, to]) => {
    if (!text.includes(from)) context.error(`PixiJS's ${module} no longer says ${from} (vite.config.ts)`);
    return text.replace(from, () => to);
  }, code);
}

/**
 * Build only: PixiJS piece by piece (decision 043). `pixi.js`'s index is marked as having side effects (it registers
 * texture sources and masks, spritesheets, and the browser environment whose import brings events, accessibility,
 * DOM elements and filters), and the bundler then keeps every module it re-exports that is bundled at all in the chunk
 * that imports it: the WebGPU and 2D canvas renderers, which PixiJS imports only when it picks one, came with the tree.
 * Here `pixi.js` is the same exports without those side effects, plus the one registration the tree needs (texture
 * sources and masks, rendering/init); the tree's canvas registers the rest itself (client/tree/tree-canvas.tsx).
 * And the WebGL renderer, the one the tree is drawn with wherever WebGL works, is imported by PixiJS's renderer choice
 * statically, so that it comes with the canvas's modules instead of being asked for once the application starts.
 * Last, PixiJS's 2D canvas helpers (which text brings, for its pattern fills) probe at import whether the 2D canvas
 * composites "multiply": they draw two small canvases and read a pixel back, and that read waits for the GPU process,
 * still busy starting the WebGL context on a cold start (about 0.2 s here). Only the 2D canvas renderer uses the
 * answer, so the probe runs when it is first read instead.
 */
function pixiPieceByPiece(): Plugin {
  const lib = `${root}node_modules/pixi.js/lib/`;
  const entry = '\0pixi.js';
  const exportsOnly = '\0pixi.js-exports';
  return {
    name: 'pixi-piece-by-piece',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      if (source === 'pixi.js') return { id: entry, moduleSideEffects: true };
      if (source === exportsOnly) return { id: exportsOnly, moduleSideEffects: false };
      return null;
    },
    transform(code, id) {
      if (id.endsWith('/pixi.js/lib/rendering/renderers/canvas/utils/canvasUtils.mjs')) {
        return replaceAll(this, code, 'canvasUtils', [
          [
            '  canUseMultiply: canUseNewCanvasBlendModes(),',
            '  get canUseMultiply() { return canUseNewCanvasBlendModes(); },',
          ],
          [
            'canvasUtils.tintMethod = canvasUtils.canUseMultiply ? canvasUtils.tintWithMultiply : canvasUtils.tintWithPerPixel;',
            `canvasUtils.tintMethod = function (...args) {
  canvasUtils.tintMethod = canvasUtils.canUseMultiply ? canvasUtils.tintWithMultiply : canvasUtils.tintWithPerPixel;
  return canvasUtils.tintMethod(...args);
};`,
          ],
        ]);
      }
      if (!id.endsWith('/pixi.js/lib/rendering/renderers/autoDetectRenderer.mjs')) return null;
      const dynamic = "await import('./gl/WebGLRenderer.mjs')";
      return `import * as webglRendererModule from './gl/WebGLRenderer.mjs';\n${replaceAll(this, code, 'autoDetectRenderer', [[dynamic, 'webglRendererModule']])}`;
    },
    load(id) {
      if (id === entry) return `import '${lib}rendering/init.mjs';\nexport * from '${exportsOnly}';\n`;
      if (id !== exportsOnly) return null;
      // The index's re-exports, one a line (`export { A, B as C } from './x.mjs';`), and the three it declares itself.
      const reexports = fs
        .readFileSync(`${lib}index.mjs`, 'utf8')
        .split('\n')
        .filter((line) => /^export \{[^}]*\} from '[^']+';$/.test(line))
        .map((line) => line.replace(/from '\.\//, `from '${lib}`));
      return [
        ...reexports,
        `export { extensions } from '${lib}extensions/Extensions.mjs';`,
        `export { browserExt } from '${lib}environment-browser/browserExt.mjs';`,
        `export { webworkerExt } from '${lib}environment-webworker/webworkerExt.mjs';`,
      ].join('\n');
    },
  };
}

export default defineConfig({
  root: `${root}client`,
  publicDir: `${root}client/public`,
  plugins: [react(), adminDashboardInDev(), earlyTreeStart(), pixiPieceByPiece()],
  // #client/* and #shared/* resolve through package.json "imports", which Vite follows natively. The client
  // imports only types from #server; those vanish in the build.
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      // client/api/*.ts are source modules the dev server serves itself; every other /api/ path is the app's.
      '^/api/(?!.*\\.tsx?(\\?|$))': apiServer,
      '/trpc': apiServer,
      '/media': apiServer,
    },
  },
  build: {
    outDir: `${root}dist/client`,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // The tree's canvas with the parts of PixiJS it draws with is about 370 kB minified (110 kB gzipped); it loads
    // only with the tree page.
    chunkSizeWarningLimit: 500,
    rolldownOptions: {
      input: {
        main: `${root}client/index.html`,
        admin: `${root}client/admin/index.html`,
        early: `${root}client/tree/early-start.ts`,
      },
      output: {
        codeSplitting: {
          // The React and query libraries get chunks of their own, which every page shares. PixiJS has no group (a
          // group takes in every module it matches, the renderers PixiJS imports only when it picks one included):
          // what the tree draws with comes with the tree's canvas, the other renderers in chunks of their own
          // (pixiPieceByPiece above), and a text page, or the staff dashboard, never downloads any of it.
          groups: [
            // Higher priority claims a module first. Vite's preload helper and React go first, so that the group
            // after them does not absorb them. The preload helper has a chunk of its own: the tree's early start
            // needs it, and must not wait for React.
            { name: 'preload', test: /vite[\\/]preload-helper/, priority: 4 },
            {
              name: 'react',
              // Not the scheduler inside react-reconciler (@pixi/react's own): that one comes with the tree's canvas.
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/](?!.*node_modules)/,
              priority: 3,
            },
            { name: 'query', test: /node_modules[\\/](@tanstack|@trpc)[\\/]/, priority: 2 },
          ],
        },
      },
    },
  },
});
