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
 * Server tests the PostgreSQL lane leaves to the SQLite one (decision 037): those whose subject is SQLite itself (its
 * file, write queue, backups, pragmas, the copy from it), those that run on both engines already
 * (`describe.each(ENGINES)`, PostgreSQL's own), and those that start server processes on one data folder, build
 * the client or test HTTP in front of the app: what they prove does not depend on the engine, and they are the
 * suite's slowest.
 */
const POSTGRES_LANE_SKIPS = [
  // SQLite itself.
  'tests/server/{backup,crash-safety,full-disk,stop-on-full-disk,write-queue,snapshot-build,tree-history}.test.ts',
  'tests/server/{migrate-to-postgres,seed,admin-cli,rate-limit,search-bounds,search-fairness,generate-script}.test.ts',
  // Both engines already, or PostgreSQL's own.
  'tests/server/{engines-*,postgres-*,several-hosts,open-database,read-transactions,prepared-for-engines}.test.ts',
  'tests/server/{awaited-builds,job-leases}.test.ts',
  // Processes on one data folder, the client's build, the app built with a config of its own.
  'tests/server/{processes,nginx-front-door,surroundings,startup,shutdown,native-lifetime,load}.test.ts',
  'tests/server/{media-race,review-race,reservation-race,request-logs,client-build,security-headers}.test.ts',
  // HTTP in front of the app: the proxy's headers, the ZIP lookup's outside service, the image line's queue and
  // refusals before a body is read.
  'tests/server/{behind-a-proxy,zip,upload-queue,upload-early-refusal}.test.ts',
  // Media storage's adapters on a folder and an object store: no database at all, or what they prove of it already
  // runs on PostgreSQL (the sweep's queries in art-media.test.ts); each starts an object store server of its own.
  'tests/server/{media-storage,media-sweep,media-s3,media-copy}.test.ts',
];

export default defineConfig({
  test: {
    // Every project: the temporary folders a test file made (tests/helpers/temp-dirs.ts) go once the file is done, and
    // each file starts with SQLite's tables in the services whatever the file before it used.
    setupFiles: ['tests/helpers/temp-dirs-cleanup.ts', 'tests/helpers/fresh-tables.ts'],
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
