/**
 * The `unit` project of vitest.config.ts alone, for Stryker (tests/mutation/run.ts): its runner loads one config and
 * runs every project in it, and the other projects start servers and browsers.
 */
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import base from '../../vitest.config.ts';

const unit = base.test?.projects?.find(
  (project): project is TestProjectInlineConfiguration =>
    typeof project === 'object' && 'test' in project && project.test?.name === 'unit',
);
if (!unit?.test) throw new Error("vitest.config.ts has no project named 'unit'");

export default defineConfig({
  // Stryker runs one worker per process (its concurrency is the number of processes), and times each mutant.
  test: { ...unit.test, name: 'unit', maxWorkers: 1 },
});
