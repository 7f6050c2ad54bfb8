/** Inputs of the reservation calls (docs/api.md): reserve a square or a branch slot, read or extend a reservation. */
import * as v from 'valibot';
import { MESSAGES } from './rules.ts';
import { tokenSchema } from './common.ts';

/** A row or column of the grid: an integer (a numeric string from a form is accepted), within a sane range. */
const coordinate = v.pipe(
  v.union(
    [
      v.number(MESSAGES.invalid),
      v.pipe(v.string(MESSAGES.invalid), v.regex(/^-?\d{1,6}$/, MESSAGES.invalid), v.transform(Number)),
    ],
    MESSAGES.invalid,
  ),
  v.integer(MESSAGES.invalid),
  v.minValue(-100_000, MESSAGES.invalid),
  v.maxValue(100_000, MESSAGES.invalid),
);

export const reserveCellSchema = v.object({ token: tokenSchema });

/** POST /api/branch/reserve: a position of the default tree unless a tree token is given. */
export const reserveBranchSchema = v.object({
  treeToken: v.optional(tokenSchema),
  row: coordinate,
  column: coordinate,
});

/** The extend page's two path parameters: the square and the reminder token mailed in the link. */
export const reminderSchema = v.object({ cellToken: tokenSchema, reminderToken: tokenSchema });
