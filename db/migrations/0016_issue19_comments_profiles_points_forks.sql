CREATE TABLE `user_avatars` (
	`user_id` text PRIMARY KEY NOT NULL,
	`content_type` text NOT NULL,
	`bytes` blob NOT NULL,
	`etag` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `map_collection_shares` (
	`collection_id` text NOT NULL,
	`user_id` text NOT NULL,
	`can_edit` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`collection_id`, `user_id`),
	FOREIGN KEY (`collection_id`) REFERENCES `map_collections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `map_collection_shares_user` ON `map_collection_shares` (`user_id`);--> statement-breakpoint
CREATE TABLE `assembly_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`assembly_id` integer NOT NULL,
	`author_id` text NOT NULL,
	`content` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`assembly_id`) REFERENCES `assemblies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `assembly_comments_assembly` ON `assembly_comments` (`assembly_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `assembly_comments_author` ON `assembly_comments` (`author_id`,`created_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_map_points` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`collection_id` text,
	`position` integer DEFAULT 0 NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`address` text,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`tags` text NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`collection_id`) REFERENCES `map_collections`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "map_points_latitude" CHECK("__new_map_points"."latitude" BETWEEN -90 AND 90),
	CONSTRAINT "map_points_longitude" CHECK("__new_map_points"."longitude" BETWEEN -180 AND 180)
);
--> statement-breakpoint
-- Issue 19: points become their own resource with a global uuid. A point id used in more than one
-- collection (the contract let a client copy a point with its uuid) keeps it in the first collection
-- and gets a fresh uuid in the others; the owner is the collection's author.
INSERT INTO `__new_map_points`("id", "owner_id", "collection_id", "position", "title", "description", "address", "latitude", "longitude", "tags", "is_public", "created_at", "updated_at") SELECT CASE WHEN p.rowid = (SELECT min(q.rowid) FROM `map_points` q WHERE q.id = p.id) THEN p.id ELSE lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))) END, c.author_id, p.collection_id, p.position, p.title, p.description, NULL, p.latitude, p.longitude, p.tags, 0, c.created_at, c.updated_at FROM `map_points` p JOIN `map_collections` c ON c.id = p.collection_id;--> statement-breakpoint
DROP TABLE `map_points`;--> statement-breakpoint
ALTER TABLE `__new_map_points` RENAME TO `map_points`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `map_points_collection_position` ON `map_points` (`collection_id`,`position`);--> statement-breakpoint
CREATE INDEX `map_points_owner_updated` ON `map_points` (`owner_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `map_points_place` ON `map_points` (`latitude`,`longitude`);--> statement-breakpoint
ALTER TABLE `users` ADD `alternative_name` text;--> statement-breakpoint
ALTER TABLE `users` ADD `avatar_url` text;--> statement-breakpoint
ALTER TABLE `users` ADD `introduction` text;--> statement-breakpoint
ALTER TABLE `users` ADD `language` text;--> statement-breakpoint
ALTER TABLE `assemblies` ADD `cloned_from_id` integer REFERENCES assemblies(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `assemblies` ADD `fork_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `assemblies_cloned_from` ON `assemblies` (`cloned_from_id`);--> statement-breakpoint
CREATE INDEX `assembly_likes_user` ON `assembly_likes` (`user_id`,`created_at`);