/**
 * Search over published pieces (decision 017): an FTS5 table `art_search` (migration 0001_search) of each PUBLISHED
 * piece's title, keywords, description, category and artist, its rowid the art's id. This module owns it: writers call
 * `reindexArt` in the transaction that changes a piece, and never touch the table themselves.
 */
import { eq, sql } from 'drizzle-orm';
import { art, users } from '#drizzle/tables.ts';
import { ArtStatus } from '#shared/domain.ts';
import type { SearchHit } from '#shared/art-api.ts';
import type { AiUse } from '#shared/constants.ts';
import { tablesEngine } from '#drizzle/tables.ts';
import type { Db, Queryable } from '../../db.ts';
import type { PgDb } from '../../db-pg.ts';
import type { ServiceContext } from '../context.ts';
import { thumbOf } from '../display/index.ts';
import { serverMediaUrlOf, type MediaUrlOf } from '../../storage/index.ts';
import { preparedOnce } from '../prepared.ts';
import { reindexRowPostgres, searchHitsPostgres } from './search-postgres.ts';
import { Turns } from '../../turns.ts';
import { LIMITS, hitRateLimit } from '../rate-limit.ts';

/** Results a search answers at most: one screen of the results popup, ranked. */
export const SEARCH_RESULT_LIMIT = 50;

/**
 * Matches a search ranks at most, the newest first: a three-letter prefix may match a large share of a big tree,
 * and ranking all of them would hold the server (one synchronous query) for tens of milliseconds.
 */
export const SEARCH_CANDIDATES = 1000;

/** Column weights for bm25, in the table's column order: a title match counts most, a description match least. */
const WEIGHTS = { title: 10, keywords: 4, description: 1, category: 2, artist: 5 } as const;

/**
 * Puts one piece's index row in line with the piece: written when the art is PUBLISHED, removed otherwise (draft,
 * under review, changes requested, removed, or gone). Call it inside the transaction that changed the piece or its
 * author's name.
 */
export async function reindexArt(db: Queryable, artId: number): Promise<void> {
  const piece = (
    await db
      .select({
        status: art.status,
        title: art.title,
        keywords: art.keywords,
        description: art.description,
        category: art.category,
        firstname: users.firstname,
        lastname: users.lastname,
      })
      .from(art)
      .innerJoin(users, eq(users.id, art.authorId))
      .where(eq(art.id, artId))
  )[0];
  const texts =
    piece && piece.status === ArtStatus.Published
      ? {
          title: piece.title,
          keywords: Array.isArray(piece.keywords) ? piece.keywords.join(' ') : '',
          description: piece.description,
          category: piece.category,
          artist: `${piece.firstname} ${piece.lastname}`,
        }
      : null;
  if (tablesEngine() === 'postgres') return reindexRowPostgres(db as unknown as PgDb, artId, texts);
  db.run(sql`delete from art_search where rowid = ${artId}`);
  if (!texts) return;
  db.run(sql`
    insert into art_search (rowid, title, keywords, description, category, artist)
    values (${artId}, ${texts.title}, ${texts.keywords}, ${texts.description}, ${texts.category}, ${texts.artist})
  `);
}

/**
 * Indexes every published piece afresh, in one statement (the same as migration 0001_search): for rows written in
 * bulk, such as a synthetic benchmark tree. Answers how many pieces are searchable. Synthetic trees (seed/synthetic.ts)
 * are not indexed as they are generated (a million pieces would add about 6.5 s to 18 s, for a search nobody runs
 * there): a benchmark that searches one calls this after generating it.
 */
export function rebuildSearchIndex(db: Queryable): number {
  db.run(sql`delete from art_search`);
  db.run(sql`
    insert into art_search (rowid, title, keywords, description, category, artist)
    select a.id, a.title, (select coalesce(group_concat(value, ' '), '') from json_each(a.keywords)), a.description, a.category,
           u.firstname || ' ' || u.lastname
    from art a join users u on u.id = a.author_id
    where a.status = ${ArtStatus.Published}
  `);
  return db.get<{ n: number }>(sql`select count(*) as n from art_search`).n;
}

/** Every piece of one author, after their name changed (the artist column holds it). */
export async function reindexArtOfAuthor(db: Queryable, authorId: number): Promise<void> {
  for (const { id } of await db.select({ id: art.id }).from(art).where(eq(art.authorId, authorId)))
    await reindexArt(db, id);
}

/**
 * The FTS5 query for what a visitor typed, or null when it holds no word at all. Each word becomes a quoted
 * prefix term (`"blue"*`), so FTS syntax in the input (quotes, NEAR(, *, AND, column filters) is only ever text;
 * the words are ANDed.
 */
export function ftsQueryOf(term: string): string | null {
  return ftsQueryFrom(searchWordsOf(term));
}

function ftsQueryFrom(words: readonly string[]): string | null {
  if (words.length === 0) return null;
  return words.map((word) => `"${word.replaceAll('"', '""')}"*`).join(' ');
}

/** The words of what a visitor typed, each searched as a prefix: runs of letters, digits and marks, 12 at most. */
export function searchWordsOf(term: string): string[] {
  const words =
    term
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return [...new Set(words)].slice(0, 12);
}

type HitRow = [
  string,
  number,
  number,
  number,
  number,
  string,
  string,
  string,
  string,
  string,
  string,
  string | null,
  number,
  string,
];

const w = WEIGHTS;
/**
 * Bounded work whatever the term (decision 017): only the newest SEARCH_CANDIDATES matches are ranked, and only the
 * best few of those are joined (CROSS JOIN keeps SQLite from scanning every published piece instead). The joins
 * re-check that the piece is live and still the cell's art, so a stale index row can never leak out.
 * Parameters: the FTS query, how many to rank closely (twice the answer), how many to answer.
 */
const SEARCH_SQL = `
  select c.token, c.row, c."column", c.type, c.status, a.token, a.title, a.category, u.firstname, u.lastname, u.token, p.media_key,
         coalesce(a.published_at, a.created_at), a.ai_use
  from (
    select id, score from (
      select rowid as id, bm25(art_search, ${w.title}, ${w.keywords}, ${w.description}, ${w.category}, ${w.artist}) as score
      from art_search where art_search match ?
      order by rowid desc limit ${SEARCH_CANDIDATES}
    ) order by score, id desc limit ?
  ) s
  cross join art a on a.id = s.id and a.status = ${ArtStatus.Published}
  join cells c on c.id = a.cell_id and c.art_id = a.id
  join users u on u.id = a.author_id
  left join pictures p on p.art_id = a.id and p.position = 0
  order by s.score, a.id desc
  limit ?
`;

/** Prepared once per connection: at ~100,000 pieces preparing the statement cost a tenth of a search. */
const searchStatement = preparedOnce<[string, number, number], HitRow>(SEARCH_SQL, { raw: true });

/**
 * Published pieces matching `term`, best first: bm25 with the weights above; on PostgreSQL, the best weight of each
 * prefix among the piece's words, summed (decision 037).
 */
export async function searchCells(
  db: Db,
  term: string,
  limit = SEARCH_RESULT_LIMIT,
  urlOf: MediaUrlOf = serverMediaUrlOf,
): Promise<SearchHit[]> {
  const words = searchWordsOf(term);
  const query = ftsQueryFrom(words);
  if (!query) return [];
  const wanted = Math.max(1, Math.min(limit, SEARCH_RESULT_LIMIT));
  if (tablesEngine() === 'postgres') {
    const hits = await searchHitsPostgres(db as unknown as PgDb, words, SEARCH_CANDIDATES, wanted * 2, wanted);
    return hits.map(({ mediaKey, firstname, lastname, aiUse, ...hit }) => ({
      ...hit,
      artist: `${firstname} ${lastname}`,
      artistFirstname: firstname,
      artistLastname: lastname,
      thumb: thumbOf(mediaKey, urlOf),
      aiUse: aiUse as AiUse,
    }));
  }
  const rows = searchStatement(db).all(query, wanted * 2, wanted);
  return rows.map(
    ([
      cellToken,
      row,
      column,
      cellType,
      cellStatus,
      artToken,
      title,
      category,
      firstname,
      lastname,
      artistToken,
      mediaKey,
      addedAt,
      aiUse,
    ]) => ({
      cellToken,
      row,
      column,
      cellType,
      cellStatus,
      artToken,
      title,
      category,
      artist: `${firstname} ${lastname}`,
      artistToken,
      artistFirstname: firstname,
      artistLastname: lastname,
      thumb: thumbOf(mediaKey, urlOf),
      addedAt,
      aiUse: aiUse as AiUse,
    }),
  );
}

/** Searches waiting for their turn at most; past that, busy. About 60 ms of queries at a millisecond each. */
export const SEARCHES_WAITING = 64;
const searchTurns = new Turns(SEARCHES_WAITING);

/**
 * A visitor's search: limited per address, then run in its turn (server/turns.ts), so a flood of searches leaves
 * room between them for everything else. `term` is already validated.
 */
export async function searchForVisitor(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'media'>,
  ip: string,
  term: string,
): Promise<SearchHit[]> {
  await hitRateLimit(ctx.db, ctx.clock.now(), LIMITS.searchPerIp, ip);
  return searchTurns.take(() => searchCells(ctx.db, term, SEARCH_RESULT_LIMIT, ctx.media.urlOf));
}
