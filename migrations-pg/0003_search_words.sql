-- Search by prefix reads a b-tree of the indexed words instead of the GIN index of art_search's documents (decision
-- 037): a GIN index answers a prefix with every matching piece in no order, and finding the newest thousand of a
-- common prefix meant reading thousands of rows; the words in order answer it from the index alone.
DROP INDEX "art_search_document_idx";
--> statement-breakpoint
-- One row per word of a published piece's document, with the best weight the word has there (title 1, artist and
-- keywords 0.4, category 0.2, description 0.1, ts_rank's own weights). Words compare byte by byte (collation "C"), so
-- a prefix is a range of the index whatever the database's locale.
CREATE TABLE "art_search_words" (
	"word" text COLLATE "C" NOT NULL,
	"art_id" integer NOT NULL REFERENCES "art_search"("art_id") ON DELETE CASCADE,
	"weight" real NOT NULL,
	PRIMARY KEY ("art_id", "word")
);
--> statement-breakpoint
CREATE INDEX "art_search_words_prefix_idx" ON "art_search_words" ("word", "art_id", "weight");
--> statement-breakpoint
-- Kept in line by art_search itself, whoever writes it (the search service, the copy from SQLite, a rebuild): its
-- words are written again whenever a row is, and go with it when it is deleted (the foreign key above).
CREATE FUNCTION art_search_words_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM art_search_words WHERE art_id = NEW.art_id;
	INSERT INTO art_search_words (word, art_id, weight)
	SELECT entry.lexeme, NEW.art_id,
		max(CASE weight WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.4 WHEN 'C' THEN 0.2 ELSE 0.1 END)
	FROM unnest(NEW.document) AS entry, unnest(entry.weights) AS weight
	GROUP BY entry.lexeme;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER art_search_words_follow AFTER INSERT OR UPDATE ON "art_search"
	FOR EACH ROW EXECUTE FUNCTION art_search_words_follow();
--> statement-breakpoint
INSERT INTO art_search_words (word, art_id, weight)
SELECT entry.lexeme, art_search.art_id,
	max(CASE weight WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.4 WHEN 'C' THEN 0.2 ELSE 0.1 END)
FROM art_search, unnest(art_search.document) AS entry, unnest(entry.weights) AS weight
GROUP BY entry.lexeme, art_search.art_id;
