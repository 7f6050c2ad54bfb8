/** `npm run bench [-- NAME…]`: runs the named benchmarks (all by default) and prints their tables. */
import { benchAudience } from './audience.bench.ts';
import { benchEngines } from './engines.bench.ts';
import { benchHardening } from './hardening.bench.ts';
import { benchLive } from './live.bench.ts';
import { benchMedia, benchPyramid } from './media.bench.ts';
import { benchMemory } from './memory.bench.ts';
import { benchTreeApply } from './tree-apply.bench.ts';
import { benchTreeBundle } from './tree-bundle.bench.ts';
import { benchTreeLiveBrowser } from './tree-live-browser.bench.ts';
import { benchServer } from './server.bench.ts';
import { benchTreeCanvas } from './tree-canvas.bench.ts';
import { benchTreeSnapshot } from './tree-snapshot.bench.ts';
import { MissingToolError } from './wrk.ts';

const BENCHES: Record<string, () => Promise<string>> = {
  snapshot: benchTreeSnapshot,
  server: benchServer,
  tree: benchTreeCanvas,
  bundle: benchTreeBundle,
  live: benchLive,
  apply: benchTreeApply,
  'browser-live': benchTreeLiveBrowser,
  hardening: benchHardening,
  memory: benchMemory,
  audience: benchAudience,
  engines: benchEngines,
  media: benchMedia,
  pyramid: benchPyramid,
};

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const names = wanted.length > 0 ? wanted : Object.keys(BENCHES);
for (const name of names) {
  const bench = BENCHES[name];
  if (!bench) {
    console.error(`Unknown benchmark "${name}". Known: ${Object.keys(BENCHES).join(', ')}.`);
    process.exit(1);
  }
  try {
    console.log(await bench());
  } catch (error) {
    if (!(error instanceof MissingToolError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
