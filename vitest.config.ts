import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// `npm test` runs the Node tests beside the browser tests on a two-core machine, and the browser tests alone keep
// most of both cores busy (Chromium draws WebGL in software), so every test here runs on a loaded machine.
// Timeouts are there to catch a hang, never to measure speed (the benchmarks do that): they are set for a loaded
// machine. The Node projects share one module graph per worker (`isolate: false`): importing the server takes a
// second or two, which every file paid again; files set up their own app through fixtures, never at import.
const SERVER_TESTS = ['tests/server/**/*.test.ts'];

const SERVER_PROJECT: TestProjectInlineConfiguration['test'] = {
  environment: 'node',
  isolate: false,
  // One PostgreSQL server for the run (both server projects), started in the background while the first files run.
  globalSetup: ['tests/helpers/server/postgres.ts'],
  // Several files at once: many of these tests wait for real time (leases, shutdown limits, e-mail delivery by real
  // server processes), and the waits overlap.
  maxWorkers: 3,
  testTimeout: 60_000,
  // Some set-ups seed a whole demo gallery (pictures and password hashes), a few seconds on an idle machine.
  hookTimeout: 180_000,
};

/**
 * Server tests the PostgreSQL lane leaves to the SQLite one: their subject is SQLite (its file, its write queue, its
 * backups, the copy from it), they already run on both engines (`describe.each(ENGINES)`), or they start processes on
 * one data folder.
 */
const POSTGRES_LANE_SKIPS = [
  'tests/server/postgres-*.test.ts',
  'tests/server/engines-*.test.ts',
  'tests/server/several-hosts.test.ts',
  'tests/server/migrate-to-postgres.test.ts',
  'tests/server/write-queue.test.ts',
  'tests/server/read-transactions.test.ts',
  'tests/server/open-database.test.ts',
  'tests/server/prepared-for-engines.test.ts',
  'tests/server/awaited-builds.test.ts',
  'tests/server/job-leases.test.ts',
  'tests/server/backup.test.ts',
  'tests/server/crash-safety.test.ts',
  'tests/server/processes.test.ts',
  'tests/server/nginx-front-door.test.ts',
  'tests/server/surroundings.test.ts',
  'tests/server/startup.test.ts',
  'tests/server/shutdown.test.ts',
  'tests/server/native-lifetime.test.ts',
  'tests/server/client-build.test.ts',
  'tests/server/admin-cli.test.ts',
  'tests/server/seed.test.ts',
  'tests/server/snapshot-build.test.ts',
  'tests/server/tree-history.test.ts',
  'tests/server/load.test.ts',
  'tests/server/media-race.test.ts',
  'tests/server/review-race.test.ts',
  'tests/server/reservation-race.test.ts',
  'tests/server/search-bounds.test.ts',
  'tests/server/search-fairness.test.ts',
  'tests/server/rate-limit.test.ts',
];

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
        test: { name: 'server', include: SERVER_TESTS, ...SERVER_PROJECT },
      },
      {
        // The server tests again, each app on a new PostgreSQL database of the run's server (decision 037), but for
        // the files whose subject is SQLite, one process's files or HTTP alone (POSTGRES_LANE_SKIPS).
        extends: true,
        test: {
          name: 'server-postgres',
          include: SERVER_TESTS,
          exclude: POSTGRES_LANE_SKIPS,
          env: { GALLERY_TEST_ENGINE: 'postgres' },
          ...SERVER_PROJECT,
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
