/**
 * The search index of published pieces and the visitor's search.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { reindexArt, reindexArtOfAuthor, searchForVisitor } from './search.ts';
export { rebuildSearchIndexPostgres } from './search-postgres.ts';
