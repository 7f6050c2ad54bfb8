/** The tree's search: a trimmed term of 3 to 100 characters, for the search box and cell.search. */
import * as v from 'valibot';
import { SEARCH_MIN_LENGTH } from '../constants.ts';
import { MESSAGES } from './rules.ts';

export const SEARCH_MAX_LENGTH = 100;

/**
 * The placeholder of both search boxes, the tree's toolbar and the results popup (decision 032): what a search looks
 * in, short enough to be read whole in the toolbar's box on a 320-pixel phone.
 */
export const SEARCH_PLACEHOLDER = 'title, artist or keyword';

export const searchTermSchema = v.pipe(
  v.string(MESSAGES.invalid),
  v.trim(),
  v.minLength(SEARCH_MIN_LENGTH, MESSAGES.minLength(SEARCH_MIN_LENGTH)),
  v.maxLength(SEARCH_MAX_LENGTH, MESSAGES.maxLength(SEARCH_MAX_LENGTH)),
);

export const searchSchema = v.object({ search: searchTermSchema });

/** Whether a typed term may be sent at all: "runs only if the trimmed text is longer than 2 characters". */
export function isSearchable(term: string): boolean {
  const trimmed = term.trim();
  return trimmed.length >= SEARCH_MIN_LENGTH && trimmed.length <= SEARCH_MAX_LENGTH;
}
