-- The first three letters of each indexed word beside it, and an index that lists a head's words newest piece first
-- (decision 037): a search for a prefix of three letters or more reads the newest pieces whose words start with it
-- and stops at the thousandth, where the words' own index gave every match of the prefix to be sorted by piece.
ALTER TABLE "art_search_words" ADD COLUMN "head" text COLLATE "C" GENERATED ALWAYS AS (left("word", 3)) STORED;
--> statement-breakpoint
CREATE INDEX "art_search_words_head_idx" ON "art_search_words" ("head", "art_id" DESC, "word", "weight");
