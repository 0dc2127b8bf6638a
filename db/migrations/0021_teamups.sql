CREATE TABLE `team_ups` (
	`id` text PRIMARY KEY NOT NULL,
	`publisher_id` text,
	`player` text NOT NULL,
	`description` text NOT NULL,
	`tags` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`publisher_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `team_ups_expires` ON `team_ups` (`expires_at`);--> statement-breakpoint
CREATE INDEX `team_ups_publisher_expires` ON `team_ups` (`publisher_id`,`expires_at`);