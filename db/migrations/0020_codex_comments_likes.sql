-- Issue 34: comments and likes of any target, and the codex of the community data set. The two
-- tables of issue 19 (assembly_comments, assembly_likes: an assembly's integer id) become one table each
-- whose target is (target_type, target_id): an assembly's uuid, or a codex entry's kind and id
-- (server/domains/assembly/targets.ts). Every existing comment and like is copied in its order (the
-- rowid breaks ties of the same millisecond in both lists), under target type `assembly`. An assembly's
-- deletion removed its comments and likes through a foreign key; a target has none now, so the
-- trigger `assemblies_delete_reactions` removes them (a user's, through the author and user keys, still
-- cascade). codex_entries is filled by the community data set's import (server/domains/codex/).
CREATE TABLE `likes` (
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`target_type`, `target_id`, `user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `likes_user` ON `likes` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `comments` (
	`id` text PRIMARY KEY NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`author_id` text NOT NULL,
	`content` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comments_target` ON `comments` (`target_type`,`target_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_author` ON `comments` (`author_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `codex_entries` (
	`kind` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`type` text,
	`rarity` text,
	`season` text,
	PRIMARY KEY(`kind`, `id`)
);
--> statement-breakpoint
INSERT INTO `likes` (`target_type`, `target_id`, `user_id`, `created_at`)
  SELECT 'assembly', `assemblies`.`uuid`, `assembly_likes`.`user_id`, `assembly_likes`.`created_at`
  FROM `assembly_likes` INNER JOIN `assemblies` ON `assemblies`.`id` = `assembly_likes`.`assembly_id`
  ORDER BY `assembly_likes`.`rowid`;--> statement-breakpoint
INSERT INTO `comments` (`id`, `target_type`, `target_id`, `author_id`, `content`, `created_at`, `updated_at`)
  SELECT `assembly_comments`.`id`, 'assembly', `assemblies`.`uuid`, `assembly_comments`.`author_id`,
    `assembly_comments`.`content`, `assembly_comments`.`created_at`, `assembly_comments`.`updated_at`
  FROM `assembly_comments` INNER JOIN `assemblies` ON `assemblies`.`id` = `assembly_comments`.`assembly_id`
  ORDER BY `assembly_comments`.`rowid`;--> statement-breakpoint
DROP TABLE `assembly_likes`;--> statement-breakpoint
DROP TABLE `assembly_comments`;--> statement-breakpoint
CREATE TRIGGER `assemblies_delete_reactions` AFTER DELETE ON `assemblies` BEGIN
  DELETE FROM `comments` WHERE `target_type` = 'assembly' AND `target_id` = old.`uuid`;
  DELETE FROM `likes` WHERE `target_type` = 'assembly' AND `target_id` = old.`uuid`;
END;