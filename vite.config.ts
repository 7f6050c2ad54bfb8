/**
 * The client build (docs/architecture.md, Layers): root client/, output dist/client, served by the Fastify app, with
 * the staff dashboard (/admin/dashboard) as a second entry. In development Vite on 5173 proxies the API to the app.
 */
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

export default defineConfig({
  root: `${root}client`,
  publicDir: `${root}client/public`,
  plugins: [react(), adminDashboardInDev(), earlyTreeStart()],
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
    // PixiJS is about 720 kB minified (210 kB gzipped); it loads only with the tree page.
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      input: {
        main: `${root}client/index.html`,
        admin: `${root}client/admin/index.html`,
        early: `${root}client/tree/early-start.ts`,
      },
      output: {
        codeSplitting: {
          // PixiJS and the React libraries get chunks of their own: a text page, and the staff dashboard, never
          // download the renderer.
          groups: [
            // Higher priority claims a module first. Vite's preload helper and React go first, so the groups that
            // depend on them (PixiJS loads its renderers lazily) do not absorb them and drag PixiJS into every page.
            // The preload helper has a chunk of its own: the tree's early start needs it, and must not wait for React.
            { name: 'preload', test: /vite[\\/]preload-helper/, priority: 4 },
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
              priority: 3,
            },
            { name: 'query', test: /node_modules[\\/](@tanstack|@trpc)[\\/]/, priority: 2 },
            {
              name: 'pixi',
              test: /node_modules[\\/](pixi\.js|@pixi|earcut|eventemitter3|ismobilejs|tiny-lru|its-fine|react-reconciler|parse-svg-path|gifuct-js|js-binary-schema-parser|@xmldom)[\\/]/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
