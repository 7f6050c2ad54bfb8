/**
 * Search on PostgreSQL (decision 037): the statements that differ from SQLite's FTS5 (search.ts), over the plain table
 * `art_search` of drizzle/schema-pg.ts and the words of its weighted `document`, which a trigger keeps in
 * `art_search_words` (migrations-pg/0003_search_words) and a b-tree answers by prefix. The same rules as on SQLite: one row per PUBLISHED piece, the words of what was typed each a prefix and all required, only the newest
 * SEARCH_CANDIDATES matches ranked, the joins checking again that the piece is live and still its square's art.
 */
import { sql } from 'drizzle-orm';
import { SEARCH_CONFIGURATION } from '#drizzle/schema-pg.ts';
import type { SearchHit } from '#shared/art-api.ts';
import { ArtStatus } from '#shared/domain.ts';
import type { PgDb } from '../../db-pg.ts';

/** What runs these statements: the pool's handle or a transaction on it. */
type Executor = Pick<PgDb, 'execute'>;

/** A search hit as read, before search.ts shapes it for the page (the artist's names apart, the picture's key). */
export type SearchHitRow = Omit<SearchHit, 'artist' | 'artistFirstname' | 'artistLastname' | 'thumb' | 'aiUse'> & {
  firstname: string;
  lastname: string;
  mediaKey: string | null;
  aiUse: string;
};

/**
 * The words as the index keeps them (split, lower-cased and stripped of accents by the same expression and search
 * configuration as drizzle/schema-pg.ts indexes with, so that both sides fold a word alike), each a prefix every
 * match must have. Asked of PostgreSQL in a short statement of its own (or remembered), so that the search names its
 * ranges as constants, which PostgreSQL plans for far better than ranges it would compute row by row.
 */
async function prefixesOf(db: Executor, searchWords: readonly string[]): Promise<string[]> {
  const words = searchWords.join(' ');
  const known = foldedWords.get(words);
  if (known) return known;
  const { rows } = await db.execute<{ word: string }>(
    sql`select lexeme as word from unnest(to_tsvector(${SEARCH_CONFIGURATION}::regconfig,
      regexp_replace(${words}, '[^[:alnum:]]+', ' ', 'g')))`,
  );
  const prefixes = rows.map((row) => row.word).sort((a, b) => b.length - a.length);
  if (foldedWords.size >= FOLDED_KEPT) foldedWords.delete(foldedWords.keys().next().value!);
  foldedWords.set(words, prefixes);
  return prefixes;
}

/**
 * The words of recent searches as the index folds them: what visitors type repeats (the same few letters, then a
 * word), and folding depends only on the search configuration, which only a migration changes, so a search for
 * words folded before needs one statement instead of two. The oldest is forgotten first.
 */
const foldedWords = new Map<string, string[]>();
const FOLDED_KEPT = 1000;

/**
 * Above every character that can follow a prefix: words compare byte by byte (collation "C"), and U+10FFFF is the
 * largest code point UTF-8 can encode, so `prefix <= word < prefix + END` holds for every word that starts with it.
 */
const END = '\u{10FFFF}';

/** The words of `alias` (art_search_words) that start with `prefix`: a range of the b-tree. */
const startsWith = (alias: string, prefix: string) =>
  sql`${sql.raw(alias)}.word >= ${prefix} and ${sql.raw(alias)}.word < ${prefix + END}`;

/** How many letters of a word `head` keeps (migrations-pg/0004_search_words_heads): `left(word, 3)`. */
const HEAD_LETTERS = 3;

/**
 * The words of `w` that start with `prefix`, said so that PostgreSQL reads them newest piece first when it can: a
 * prefix of three letters or more names its words' head too, whose index is in piece order within a head, so the
 * search stops at the newest `candidates` instead of sorting every match. Letters are counted as PostgreSQL's
 * `left` counts them, by code point.
 */
function wordsStartingWith(prefix: string) {
  const letters = [...prefix];
  if (letters.length < HEAD_LETTERS) return startsWith('w', prefix);
  return sql`w.head = ${letters.slice(0, HEAD_LETTERS).join('')} and ${startsWith('w', prefix)}`;
}

/**
 * The newest `candidates` pieces that have a word starting with every prefix, with their score: for each prefix the
 * best weight of a word of the piece that starts with it, summed (a title word counts most, a description word
 * least). The longest prefix, likely the rarest, is read first; each other one is looked up per piece.
 */
function candidatesOf(prefixes: string[], candidates: number) {
  const [first, ...others] = prefixes as [string, ...string[]];
  const bestOf = (prefix: string) =>
    sql`(select max(o.weight) from art_search_words o where o.art_id = w.art_id and ${startsWith('o', prefix)})`;
  const score = sql.join([sql`max(w.weight)`, ...others.map(bestOf)], sql` + `);
  const alsoHas = others.map(
    (prefix) =>
      sql` and exists (select from art_search_words o where o.art_id = w.art_id and ${startsWith('o', prefix)})`,
  );
  return sql`
    select w.art_id, ${score} as score from art_search_words w
    where ${wordsStartingWith(first)}${sql.join(alsoHas)}
    group by w.art_id order by w.art_id desc limit ${candidates}
  `;
}

/**
 * The ids of the published pieces matching `words` (searchWordsOf's), best first: the newest `candidates` matches, ranked by their
 * score (candidatesOf), the newest first among equals.
 */
export async function searchIdsPostgres(
  db: Executor,
  words: readonly string[],
  candidates: number,
  limit: number,
): Promise<number[]> {
  const prefixes = await prefixesOf(db, words);
  if (prefixes.length === 0) return [];
  const { rows } = await db.execute<{ art_id: number }>(sql`
    select art_id from (${candidatesOf(prefixes, candidates)}) found
    order by score desc, art_id desc
    limit ${limit}
  `);
  return rows.map((row) => Number(row.art_id));
}

/**
 * The hits for `words` (searchWordsOf's): the best `ranked` of the newest `candidates` matches, joined to their square, artist and
 * main picture, and the first `limit` of those that are still live.
 */
export async function searchHitsPostgres(
  db: Executor,
  words: readonly string[],
  candidates: number,
  ranked: number,
  limit: number,
): Promise<SearchHitRow[]> {
  const prefixes = await prefixesOf(db, words);
  if (prefixes.length === 0) return [];
  const { rows } = await db.execute<Record<keyof SearchHitRow, unknown>>(sql`
    select c.token as "cellToken", c.row as "row", c."column" as "column", c.type as "cellType",
           c.status as "cellStatus", a.token as "artToken", a.title as "title", a.category as "category",
           u.firstname as "firstname", u.lastname as "lastname", u.token as "artistToken", p.media_key as "mediaKey",
           coalesce(a.published_at, a.created_at)::float8 as "addedAt", a.ai_use as "aiUse"
    from (
      select art_id, score from (${candidatesOf(prefixes, candidates)}) found
      order by score desc, art_id desc limit ${ranked}
    ) s
    join art a on a.id = s.art_id and a.status = ${ArtStatus.Published}
    join cells c on c.id = a.cell_id and c.art_id = a.id
    join users u on u.id = a.author_id
    left join pictures p on p.art_id = a.id and p.position = 0
    order by s.score desc, a.id desc
    limit ${limit}
  `);
  return rows.map((row) => ({ ...row, addedAt: Number(row.addedAt) }) as SearchHitRow);
}

/** The texts one piece is indexed under, as reindexing reads them. */
export interface IndexedTexts {
  title: string;
  keywords: string;
  description: string;
  category: string;
  artist: string;
}

/** Puts one piece's index row in line: removed, then written again when `texts` are given (a published piece). */
export async function reindexRowPostgres(tx: Executor, artId: number, texts: IndexedTexts | null): Promise<void> {
  await tx.execute(sql`delete from art_search where art_id = ${artId}`);
  if (!texts) return;
  await tx.execute(sql`
    insert into art_search (art_id, title, keywords, description, category, artist)
    values (${artId}, ${texts.title}, ${texts.keywords}, ${texts.description}, ${texts.category}, ${texts.artist})
  `);
}

/** Anything that runs a query with numbered parameters: a pool, or one of its connections inside a transaction. */
interface Queries {
  query: (text: string, values?: unknown[]) => Promise<{ rowCount: number | null }>;
}

/**
 * Indexes every published piece afresh (the copy from SQLite, and a tree written in bulk), by the reindexing rule:
 * its keywords joined by spaces in their order, the artist's first and last names. Answers how many were indexed.
 */
export async function rebuildSearchIndexPostgres(client: Queries): Promise<number> {
  await client.query('delete from art_search');
  const result = await client.query(
    `insert into art_search (art_id, title, keywords, description, category, artist)
     select a.id, a.title,
            case when jsonb_typeof(a.keywords) = 'array'
              then (select coalesce(string_agg(k.word, ' ' order by k.n), '')
                    from jsonb_array_elements_text(a.keywords) with ordinality as k(word, n))
              else '' end,
            a.description, a.category, u.firstname || ' ' || u.lastname
     from art a join users u on u.id = a.author_id
     where a.status = $1`,
    [ArtStatus.Published],
  );
  return result.rowCount ?? 0;
}
