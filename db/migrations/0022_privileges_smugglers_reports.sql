-- Issue 35: privileges and the smugglers' weekly reports. privilege_grants holds one row per account
-- and granted type (the types are declared in code: server/domains/privilege/tree.ts), privilege_audit
-- every change of one. smugglers_reports are the reports; their comments are rows of `comments` under
-- target type `smugglersReport` (the report's id as text), one per author (the partial unique index),
-- and the trigger `smugglers_reports_delete_reactions` removes them, and any like, with the report.
CREATE TABLE `privilege_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`action` text NOT NULL,
	`actor_id` text NOT NULL,
	`at` integer NOT NULL,
	`expires_at` integer
);
--> statement-breakpoint
CREATE INDEX `privilege_audit_user` ON `privilege_audit` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `privilege_audit_type` ON `privilege_audit` (`type`,`id`);--> statement-breakpoint
CREATE TABLE `privilege_grants` (
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`granted_by` text,
	`granted_at` integer NOT NULL,
	`expires_at` integer,
	`suspended_at` integer,
	PRIMARY KEY(`user_id`, `type`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`granted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `privilege_grants_type` ON `privilege_grants` (`type`,`granted_at`);--> statement-breakpoint
CREATE INDEX `privilege_grants_granted` ON `privilege_grants` (`granted_at`);--> statement-breakpoint
CREATE TABLE `smugglers_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`author_id` text NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `smugglers_reports_status_range` ON `smugglers_reports` (`status`,`start_time`,`end_time`);--> statement-breakpoint
CREATE INDEX `smugglers_reports_status_created` ON `smugglers_reports` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `smugglers_reports_author` ON `smugglers_reports` (`author_id`,`status`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `comments_one_per_author` ON `comments` (`target_type`,`target_id`,`author_id`) WHERE target_type = 'smugglersReport';--> statement-breakpoint
CREATE TRIGGER `smugglers_reports_delete_reactions` AFTER DELETE ON `smugglers_reports` BEGIN
  DELETE FROM `comments` WHERE `target_type` = 'smugglersReport' AND `target_id` = CAST(old.`id` AS TEXT);
  DELETE FROM `likes` WHERE `target_type` = 'smugglersReport' AND `target_id` = CAST(old.`id` AS TEXT);
END;