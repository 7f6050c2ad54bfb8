/** A setup file of every test project (vitest.config.ts): each file's temporary folders go once it is done. */
import { afterAll } from 'vitest';
import { removeTempDirs } from '#tests/helpers/temp-dirs.ts';

afterAll(removeTempDirs);
