/**
 * Once per run: build the client if it is stale, and seed one demo database (with its media) into a template
 * folder that every browser test copies, so each test starts from the same seeded gallery in milliseconds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildApp } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { seedDemo } from '#server/seed/demo.ts';
import { ensureClientBuilt } from '../../../scripts/client-build.ts';
import { E2E_ADMIN, E2E_CLIENT_DIR, PROJECT_ROOT } from '../paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDir: string;
  }
}

/**
 * The demo's layout follows its seed. The browser tests meet one fixed tree, so a run never depends on where a random
 * layout happened to leave free squares; `E2E_SEED=N` runs them on another tree.
 */
const SEED = Number(process.env.E2E_SEED ?? 2026);

export default async function setup(project: TestProject) {
  await ensureClientBuilt(PROJECT_ROOT, () => {}, E2E_CLIENT_DIR);
  const templateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-e2e-template-'));
  const app = await buildApp(testConfig(templateDir));
  await seedDemo(app.deps, { adminEmail: E2E_ADMIN.email, adminPassword: E2E_ADMIN.password, seed: SEED });
  app.deps.db.$client.pragma('wal_checkpoint(TRUNCATE)');
  await app.stop();
  project.provide('templateDir', templateDir);
  return () => fs.rmSync(templateDir, { recursive: true, force: true });
}
