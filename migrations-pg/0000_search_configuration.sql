-- The text search configuration of art_search (decision 037), created before the table whose generated column uses
-- it: PostgreSQL's `simple` dictionary (lower case, no stemming, no stop words) after `unaccent`, so that words are
-- case-folded and stripped of accents as SQLite's FTS5 `unicode61 remove_diacritics 2` does. unaccent ships with
-- PostgreSQL and is a trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION gallery_search (COPY = simple);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION gallery_search
	ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart
	WITH unaccent, simple;
