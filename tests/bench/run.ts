/** `npm run bench [-- NAME…]`: runs the named benchmarks (all by default) and prints their tables. */
import { benchTreeCanvas } from './tree-canvas.bench.ts';
import { benchTreeSnapshot } from './tree-snapshot.bench.ts';

const BENCHES: Record<string, () => Promise<string>> = {
  snapshot: benchTreeSnapshot,
  tree: benchTreeCanvas,
};

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const names = wanted.length > 0 ? wanted : Object.keys(BENCHES);
for (const name of names) {
  const bench = BENCHES[name];
  if (!bench) {
    console.error(`Unknown benchmark "${name}". Known: ${Object.keys(BENCHES).join(', ')}.`);
    process.exit(1);
  }
  console.log(await bench());
}
