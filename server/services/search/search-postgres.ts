/**
 * Search on PostgreSQL (decision 037): the statements that differ from SQLite's FTS5 (search.ts), over the plain table
 * `art_search` of drizzle/schema-pg.ts, whose generated, weighted `document` a GIN index answers. The same rules as
 * on SQLite: one row per PUBLISHED piece, the words of what was typed each a prefix and all required, only the newest
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
 * PostgreSQL's query for what ftsQueryOf made of the visitor's words (`"blue"* "her"*`): each word a prefix, all
 * required (`'blue':* & 'her':*`). The words are letters, digits and marks only, quoted so none is read as an operator.
 */
export function tsQueryOf(ftsQuery: string): string {
  return [...ftsQuery.matchAll(/"((?:[^"]|"")+)"\*/g)]
    .map(([, word]) => `'${word!.replaceAll('""', '"').replaceAll("'", "''")}':*`)
    .join(' & ');
}

const tsQuery = (ftsQuery: string) => sql`to_tsquery(${SEARCH_CONFIGURATION}::regconfig, ${tsQueryOf(ftsQuery)})`;

/**
 * The ids of the published pieces matching `ftsQuery`, best first: the newest `candidates` matches, ranked by
 * ts_rank over the weighted document (title A, artist and keywords B, category C, description D).
 */
export async function searchIdsPostgres(
  db: Executor,
  ftsQuery: string,
  candidates: number,
  limit: number,
): Promise<number[]> {
  const { rows } = await db.execute<{ art_id: number }>(sql`
    select art_id from (
      select art_id, document from art_search where document @@ ${tsQuery(ftsQuery)}
      order by art_id desc limit ${candidates}
    ) found
    order by ts_rank(document, ${tsQuery(ftsQuery)}) desc, art_id desc
    limit ${limit}
  `);
  return rows.map((row) => Number(row.art_id));
}

/**
 * The hits for `ftsQuery`: the best `ranked` of the newest `candidates` matches, joined to their square, artist and
 * main picture, and the first `limit` of those that are still live.
 */
export async function searchHitsPostgres(
  db: Executor,
  ftsQuery: string,
  candidates: number,
  ranked: number,
  limit: number,
): Promise<SearchHitRow[]> {
  const { rows } = await db.execute<Record<keyof SearchHitRow, unknown>>(sql`
    select c.token as "cellToken", c.row as "row", c."column" as "column", c.type as "cellType",
           c.status as "cellStatus", a.token as "artToken", a.title as "title", a.category as "category",
           u.firstname as "firstname", u.lastname as "lastname", u.token as "artistToken", p.media_key as "mediaKey",
           coalesce(a.published_at, a.created_at)::float8 as "addedAt", a.ai_use as "aiUse"
    from (
      select art_id, ts_rank(document, ${tsQuery(ftsQuery)}) as score from (
        select art_id, document from art_search where document @@ ${tsQuery(ftsQuery)}
        order by art_id desc limit ${candidates}
      ) found
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
