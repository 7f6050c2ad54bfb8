import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The demo admin of the browser tests' seeded template. */
export const E2E_ADMIN = { email: 'admin@e2e.gallery-tree.local', password: 'e2e-admin-password-1!' } as const;

/** The client build the browser tests serve: dist/client unless E2E_CLIENT_DIR names another folder. */
export const E2E_CLIENT_DIR = process.env.E2E_CLIENT_DIR
  ? path.resolve(process.env.E2E_CLIENT_DIR)
  : path.join(PROJECT_ROOT, 'dist/client');
