CREATE TABLE `assemblies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uuid` text NOT NULL,
	`creator_id` text NOT NULL,
	`name` text NOT NULL,
	`ship_id` text NOT NULL,
	`weapons` text NOT NULL,
	`armor` text,
	`furnitures` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`tags` text NOT NULL,
	`is_public` integer NOT NULL,
	`password_hash` text,
	`likes` integer DEFAULT 0 NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`rating_sum` integer DEFAULT 0 NOT NULL,
	`rating_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`creator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assemblies_uuid_unique` ON `assemblies` (`uuid`);--> statement-breakpoint
CREATE INDEX `assemblies_listing` ON `assemblies` (`deleted_at`,`is_public`,`created_at`);--> statement-breakpoint
CREATE INDEX `assemblies_creator` ON `assemblies` (`creator_id`,`deleted_at`);--> statement-breakpoint
CREATE INDEX `assemblies_ship` ON `assemblies` (`ship_id`);--> statement-breakpoint
CREATE TABLE `assembly_likes` (
	`assembly_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`assembly_id`, `user_id`),
	FOREIGN KEY (`assembly_id`) REFERENCES `assemblies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `assembly_ratings` (
	`assembly_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`score` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`assembly_id`, `user_id`),
	FOREIGN KEY (`assembly_id`) REFERENCES `assemblies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `catalog_hulls` (
	`id` text PRIMARY KEY NOT NULL,
	`size` text,
	`archetype` text,
	`hitpoints` real,
	`brace_strength` real,
	`half_sail` real,
	`full_sail` real,
	`travel_sail` real,
	`cargo_slots` real,
	`cargo_max_weight` real,
	`slots` text NOT NULL,
	`perks` text NOT NULL,
	`raw` text NOT NULL,
	`imported_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `catalog_items` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`category` text NOT NULL,
	`damage_per_shot` real,
	`projectiles_per_shot` real,
	`reload_speed_ms` real,
	`optimal_range` real,
	`armor` real,
	`damage_mitigation` text,
	`gear_score` real,
	`weight` real,
	`perks` text NOT NULL,
	`required_size` text,
	`raw` text NOT NULL,
	`imported_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `catalog_items_category` ON `catalog_items` (`category`);