CREATE TABLE `login_networks` (
	`user_id` integer NOT NULL,
	`network` text NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `network`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
