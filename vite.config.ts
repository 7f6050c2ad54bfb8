/**
 * The client build (DESIGN.md §1): root client/, output dist/client, served by the Fastify app. In development the
 * Vite server on 5173 proxies the API, tRPC and media paths to the app on $PORT (3000 by default). The tree canvas
 * (PixiJS) and the React libraries get chunks of their own, so a text page never downloads the renderer. A second
 * entry, client/admin/index.html, is the staff dashboard (/admin/dashboard): its own page, which never loads PixiJS
 * (the dev server rewrites the dashboard's paths to it).
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

export default defineConfig({
  root: `${root}client`,
  publicDir: `${root}client/public`,
  plugins: [react(), adminDashboardInDev()],
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
      },
      output: {
        codeSplitting: {
          groups: [
            // Higher priority claims a module first. Vite's preload helper and React go first, so the groups that
            // depend on them (PixiJS loads its renderers lazily) do not absorb them and drag PixiJS into every page.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]|vite[\\/]preload-helper/, priority: 3 },
            { name: 'query', test: /node_modules[\\/](@tanstack|@trpc)[\\/]/, priority: 2 },
            { name: 'pixi', test: /node_modules[\\/](pixi\.js|@pixi|earcut|eventemitter3|ismobilejs|tiny-lru|its-fine|react-reconciler|parse-svg-path|gifuct-js|js-binary-schema-parser|@xmldom)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
