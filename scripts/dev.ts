/**
 * `npm run dev`: the API server on :3000 (restarted on change) and Vite's dev server on :5173, which proxies
 * /api, /trpc and /media to it. Open http://localhost:5173.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, NODE_ENV: 'development' };

const children: ChildProcess[] = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'scripts/start.ts', '--no-build'], {
    cwd: root,
    env,
    stdio: 'inherit',
  }),
  spawn(bin('vite'), ['--config', 'vite.config.ts'], { cwd: root, env, stdio: 'inherit' }),
];

const stopAll = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.once('SIGINT', stopAll);
process.once('SIGTERM', stopAll);
for (const child of children)
  child.once('exit', (code) => {
    stopAll();
    process.exitCode = code ?? 0;
  });
