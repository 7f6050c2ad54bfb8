-- The tree change log (docs/decisions/023-live-tree-change-log.md): one row per change to a cell the snapshot shows.
CREATE TABLE `tree_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tree_id` integer NOT NULL,
	`cell_id` integer,
	`at` integer NOT NULL,
	FOREIGN KEY (`tree_id`) REFERENCES `trees`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tree_changes_tree_seq_idx` ON `tree_changes` (`tree_id`,`seq`);--> statement-breakpoint
ALTER TABLE `trees` ADD `changes_from` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The log's numbers continue every tree's version so far, and no tree can be brought up to date from before it.
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'tree_changes', coalesce(max(`version`), 0) FROM `trees`;--> statement-breakpoint
UPDATE `trees` SET `changes_from` = `version`;
