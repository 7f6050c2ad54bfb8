import { defineConfig } from 'vitest/config';

// `npm test` runs the Node tests beside the browser tests on a two-core machine, and the browser tests alone keep
// most of both cores busy (Chromium draws WebGL in software), so every test here runs on a loaded machine.
// Timeouts are there to catch a hang, never to measure speed (the benchmarks do that): they are set for a loaded
// machine. The Node projects share one module graph per worker (`isolate: false`): importing the server takes a
// second or two, which every file paid again; files set up their own app through fixtures, never at import.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          maxWorkers: 3,
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          // Forms and popups rendered without a browser (react-dom/server), over answers of a real test app.
          name: 'component',
          include: ['tests/component/**/*.test.ts'],
          environment: 'node',
          // One import of the server and the client's modules per worker, shared by its files. As many workers as the
          // other Node projects: vitest runs projects with different worker counts only in separate groups.
          isolate: false,
          maxWorkers: 3,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          // One PostgreSQL server for the run's PostgreSQL tests, started in the background while the first files run.
          globalSetup: ['tests/helpers/server/postgres.ts'],
          // Several files at once: many of these tests wait for real time (leases, shutdown limits, e-mail
          // delivery by real server processes), and the waits overlap.
          maxWorkers: 3,
          testTimeout: 60_000,
          // Some set-ups seed a whole demo gallery (pictures and password hashes), a few seconds on an idle machine.
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          // As the Node projects: the files share one module graph (the server and the fixtures are imported once,
          // not once per file); each file starts its own gallery and browser through its fixtures.
          isolate: false,
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/browser/global-setup.ts'],
          // One browser at a time: software WebGL alone keeps both cores busy, and two at once only slow each other.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
