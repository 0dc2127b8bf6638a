CREATE TABLE `drop_campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` text NOT NULL,
	`name` text NOT NULL,
	`game` text NOT NULL,
	`description` text,
	`image_url` text,
	`details_url` text,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `drop_campaigns_campaign_id_unique` ON `drop_campaigns` (`campaign_id`);--> statement-breakpoint
CREATE INDEX `drop_campaigns_window` ON `drop_campaigns` (`starts_at`,`ends_at`);--> statement-breakpoint
CREATE TABLE `drop_channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`url` text,
	FOREIGN KEY (`campaign_id`) REFERENCES `drop_campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `drop_channels_campaign_name` ON `drop_channels` (`campaign_id`,`name`);--> statement-breakpoint
CREATE TABLE `drop_rewards` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`image_url` text,
	`required_minutes` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `drop_campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `drop_rewards_campaign` ON `drop_rewards` (`campaign_id`,`position`);--> statement-breakpoint
CREATE TABLE `seasons` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`number` integer NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `seasons_key_unique` ON `seasons` (`key`);--> statement-breakpoint
CREATE UNIQUE INDEX `seasons_number_unique` ON `seasons` (`number`);--> statement-breakpoint
CREATE TABLE `war_companies` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `war_company_scores` (
	`snapshot_id` integer NOT NULL,
	`company_id` text NOT NULL,
	`score` real NOT NULL,
	FOREIGN KEY (`snapshot_id`) REFERENCES `war_snapshots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `war_companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `war_company_scores_pk` ON `war_company_scores` (`snapshot_id`,`company_id`);--> statement-breakpoint
CREATE TABLE `war_hotspots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`snapshot_id` integer NOT NULL,
	`zone_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`ends_at` integer,
	FOREIGN KEY (`snapshot_id`) REFERENCES `war_snapshots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`zone_id`) REFERENCES `war_zones`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `war_hotspots_snapshot` ON `war_hotspots` (`snapshot_id`);--> statement-breakpoint
CREATE TABLE `war_snapshots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`season_id` text NOT NULL,
	`captured_at` integer NOT NULL,
	FOREIGN KEY (`season_id`) REFERENCES `seasons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `war_snapshots_season_time` ON `war_snapshots` (`season_id`,`captured_at`);--> statement-breakpoint
CREATE TABLE `war_zone_control` (
	`snapshot_id` integer NOT NULL,
	`zone_id` text NOT NULL,
	`controller_id` text,
	`scores` text NOT NULL,
	FOREIGN KEY (`snapshot_id`) REFERENCES `war_snapshots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`zone_id`) REFERENCES `war_zones`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`controller_id`) REFERENCES `war_companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `war_zone_control_pk` ON `war_zone_control` (`snapshot_id`,`zone_id`);--> statement-breakpoint
CREATE TABLE `war_zones` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `calendar_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`season_id` text NOT NULL,
	`event_key` text NOT NULL,
	`title` text NOT NULL,
	`category` text NOT NULL,
	`description` text,
	`url` text,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	FOREIGN KEY (`season_id`) REFERENCES `seasons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_events_season_key` ON `calendar_events` (`season_id`,`event_key`);--> statement-breakpoint
CREATE INDEX `calendar_events_season_start` ON `calendar_events` (`season_id`,`starts_at`);