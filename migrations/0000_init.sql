CREATE TABLE `art` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`cell_id` integer NOT NULL,
	`author_id` integer NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`year` integer,
	`category` text DEFAULT '' NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`style` text DEFAULT '' NOT NULL,
	`medium` text DEFAULT '[]' NOT NULL,
	`materials` text DEFAULT '[]' NOT NULL,
	`keywords` text DEFAULT '[]' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`width` text DEFAULT '' NOT NULL,
	`height` text DEFAULT '' NOT NULL,
	`depth` text DEFAULT '' NOT NULL,
	`units` text DEFAULT 'in' NOT NULL,
	`no_size` integer DEFAULT false NOT NULL,
	`ai_use` text DEFAULT 'none' NOT NULL,
	`dominant_color` integer,
	`review_note` text,
	`submitted_at` integer,
	`published_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`cell_id`) REFERENCES `cells`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `art_token_unique` ON `art` (`token`);--> statement-breakpoint
CREATE INDEX `art_cell_idx` ON `art` (`cell_id`);--> statement-breakpoint
CREATE INDEX `art_author_idx` ON `art` (`author_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `art_status_idx` ON `art` (`status`,`submitted_at`);--> statement-breakpoint
CREATE TABLE `art_likes` (
	`user_id` integer NOT NULL,
	`art_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `art_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`art_id`) REFERENCES `art`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `art_likes_art_idx` ON `art_likes` (`art_id`);--> statement-breakpoint
CREATE TABLE `art_views` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`art_id` integer NOT NULL,
	`viewer_key` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`art_id`) REFERENCES `art`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `art_views_viewer_unique` ON `art_views` (`art_id`,`viewer_key`);--> statement-breakpoint
CREATE TABLE `cells` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`tree_id` integer NOT NULL,
	`row` integer NOT NULL,
	`column` integer NOT NULL,
	`type` integer NOT NULL,
	`status` integer NOT NULL,
	`art_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tree_id`) REFERENCES `trees`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cells_token_unique` ON `cells` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `cells_position_unique` ON `cells` (`tree_id`,`row`,`column`);--> statement-breakpoint
CREATE INDEX `cells_tree_status_idx` ON `cells` (`tree_id`,`status`);--> statement-breakpoint
CREATE INDEX `cells_art_idx` ON `cells` (`art_id`);--> statement-breakpoint
CREATE TABLE `connections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`art_id` integer NOT NULL,
	`next_cell_id` integer NOT NULL,
	`description` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`art_id`) REFERENCES `art`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`next_cell_id`) REFERENCES `cells`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connections_token_unique` ON `connections` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `connections_pair_unique` ON `connections` (`art_id`,`next_cell_id`);--> statement-breakpoint
CREATE INDEX `connections_next_idx` ON `connections` (`next_cell_id`);--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`email` text NOT NULL,
	`reason` text NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`handled_at` integer,
	`handled_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`handled_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `contact_messages_handled_idx` ON `contact_messages` (`handled_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `follows` (
	`follower_id` integer NOT NULL,
	`followed_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`follower_id`, `followed_id`),
	FOREIGN KEY (`follower_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`followed_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `follows_followed_idx` ON `follows` (`followed_id`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dedupe_key` text,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text,
	`kind` text NOT NULL,
	`state` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_outbox_dedupe_key_unique` ON `mail_outbox` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `mail_outbox_state_idx` ON `mail_outbox` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `password_reset_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_reset_tokens_token_hash_unique` ON `password_reset_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_reset_user_idx` ON `password_reset_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `pictures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`art_id` integer NOT NULL,
	`position` integer NOT NULL,
	`media_key` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`art_id`) REFERENCES `art`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pictures_token_unique` ON `pictures` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `pictures_art_position_unique` ON `pictures` (`art_id`,`position`);--> statement-breakpoint
CREATE INDEX `pictures_media_idx` ON `pictures` (`media_key`);--> statement-breakpoint
CREATE TABLE `rate_limit_hits` (
	`key` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`key`, `window_start`)
);
--> statement-breakpoint
CREATE TABLE `removal_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`art_id` integer NOT NULL,
	`requester_id` integer,
	`email` text NOT NULL,
	`reason` text NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`decided_by` integer,
	`decision_note` text,
	`decided_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`art_id`) REFERENCES `art`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`requester_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `removal_requests_token_unique` ON `removal_requests` (`token`);--> statement-breakpoint
CREATE INDEX `removal_requests_state_idx` ON `removal_requests` (`state`,`created_at`);--> statement-breakpoint
CREATE TABLE `reservations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`user_id` integer NOT NULL,
	`cell_id` integer NOT NULL,
	`state` text DEFAULT 'active' NOT NULL,
	`expires_at` integer NOT NULL,
	`reminder_count` integer DEFAULT 0 NOT NULL,
	`extended` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cell_id`) REFERENCES `cells`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reservations_token_unique` ON `reservations` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `reservations_one_per_user` ON `reservations` (`user_id`) WHERE state = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX `reservations_one_per_cell` ON `reservations` (`cell_id`) WHERE state = 'active';--> statement-breakpoint
CREATE INDEX `reservations_state_expiry_idx` ON `reservations` (`state`,`expires_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`secret_hash` blob NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`last_verified_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `staff_actions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`staff_id` integer NOT NULL,
	`action` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_token` text NOT NULL,
	`note` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`staff_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `staff_actions_created_idx` ON `staff_actions` (`created_at`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`cell_id` integer,
	`created_at` integer NOT NULL,
	`notified_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`cell_id`) REFERENCES `cells`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `subscriptions_cell_idx` ON `subscriptions` (`cell_id`,`notified_at`);--> statement-breakpoint
CREATE INDEX `subscriptions_user_idx` ON `subscriptions` (`user_id`);--> statement-breakpoint
CREATE TABLE `trees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`name` text NOT NULL,
	`settings` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trees_token_unique` ON `trees` (`token`);--> statement-breakpoint
CREATE TABLE `user_likes` (
	`user_id` integer NOT NULL,
	`liked_user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `liked_user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`liked_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_likes_liked_idx` ON `user_likes` (`liked_user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`firstname` text NOT NULL,
	`lastname` text NOT NULL,
	`role` integer DEFAULT 1 NOT NULL,
	`show_email` integer DEFAULT false NOT NULL,
	`image` text,
	`description` text DEFAULT '' NOT NULL,
	`exhibitions` text DEFAULT '' NOT NULL,
	`education` text DEFAULT '' NOT NULL,
	`personal_url` text DEFAULT '' NOT NULL,
	`fb_url` text DEFAULT '' NOT NULL,
	`tw_url` text DEFAULT '' NOT NULL,
	`tt_url` text DEFAULT '' NOT NULL,
	`in_url` text DEFAULT '' NOT NULL,
	`zipcode` text DEFAULT '' NOT NULL,
	`country` text DEFAULT '' NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`city` text DEFAULT '' NOT NULL,
	`disabled_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_token_unique` ON `users` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`);