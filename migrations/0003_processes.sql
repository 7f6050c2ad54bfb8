-- Several processes on one data folder (docs/decisions/025-several-processes.md): job runs and outgoing e-mails are
-- claimed in the database, with an owner and a lease that runs out if the owner dies.
CREATE TABLE `job_leases` (
	`name` text PRIMARY KEY NOT NULL,
	`owner` text,
	`lease_until` integer DEFAULT 0 NOT NULL,
	`next_run_at` integer DEFAULT 0 NOT NULL,
	`last_run_at` integer
);
--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `claim_until` integer;