-- Full-text search over published pieces (spec §2 search popup; DESIGN.md §5). One row per PUBLISHED art, its rowid
-- the art's id. server/services/search.ts keeps it in sync (reindexArt); this migration indexes what is already live.
-- Prefix indexes of 2 and 3 characters make "each word as a prefix" queries cheap.
CREATE VIRTUAL TABLE `art_search` USING fts5(
	`title`,
	`keywords`,
	`description`,
	`category`,
	`artist`,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
--> statement-breakpoint
INSERT INTO `art_search` (`rowid`, `title`, `keywords`, `description`, `category`, `artist`)
SELECT
	`art`.`id`,
	`art`.`title`,
	(SELECT coalesce(group_concat(`value`, ' '), '') FROM json_each(`art`.`keywords`)),
	`art`.`description`,
	`art`.`category`,
	`users`.`firstname` || ' ' || `users`.`lastname`
FROM `art`
INNER JOIN `users` ON `users`.`id` = `art`.`author_id`
WHERE `art`.`status` = 2;
