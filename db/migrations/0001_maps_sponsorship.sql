CREATE TABLE `map_collections` (
	`id` text PRIMARY KEY NOT NULL,
	`author_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`is_public` integer DEFAULT true NOT NULL,
	`point_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `map_collections_author_updated` ON `map_collections` (`author_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `map_points` (
	`collection_id` text NOT NULL,
	`id` text NOT NULL,
	`position` integer NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`tags` text NOT NULL,
	PRIMARY KEY(`collection_id`, `id`),
	FOREIGN KEY (`collection_id`) REFERENCES `map_collections`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "map_points_latitude" CHECK("map_points"."latitude" BETWEEN -90 AND 90),
	CONSTRAINT "map_points_longitude" CHECK("map_points"."longitude" BETWEEN -180 AND 180)
);
--> statement-breakpoint
CREATE INDEX `map_points_collection_position` ON `map_points` (`collection_id`,`position`);--> statement-breakpoint
CREATE TABLE `subscription_goal` (
	`id` integer PRIMARY KEY NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subscription_memberships` (
	`user_id` text NOT NULL,
	`tier_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `tier_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tier_id`) REFERENCES `subscription_tiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `subscription_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tier_id` text NOT NULL,
	`pay_type` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`months` integer NOT NULL,
	`status` text NOT NULL,
	`idempotency_key` text,
	`payment_url` text NOT NULL,
	`provider_ref` text,
	`confirmed_by` text,
	`created_at` integer NOT NULL,
	`pay_deadline` integer NOT NULL,
	`paid_at` integer,
	`closed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tier_id`) REFERENCES `subscription_tiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscription_orders_idempotency` ON `subscription_orders` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `subscription_orders_user_created` ON `subscription_orders` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `subscription_orders_status_deadline` ON `subscription_orders` (`status`,`pay_deadline`);--> statement-breakpoint
CREATE INDEX `subscription_orders_paid` ON `subscription_orders` (`status`,`paid_at`);--> statement-breakpoint
CREATE TABLE `subscription_pay_types` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subscription_plans` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`position` integer DEFAULT 0 NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subscription_supporter_prefs` (
	`user_id` text PRIMARY KEY NOT NULL,
	`hall_visible` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `subscription_tiers` (
	`id` text PRIMARY KEY NOT NULL,
	`plan_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`price_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`months` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`plan_id`) REFERENCES `subscription_plans`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "subscription_tiers_price" CHECK("subscription_tiers"."price_minor" > 0),
	CONSTRAINT "subscription_tiers_months" CHECK("subscription_tiers"."months" BETWEEN 1 AND 120)
);
--> statement-breakpoint
CREATE INDEX `subscription_tiers_plan` ON `subscription_tiers` (`plan_id`);