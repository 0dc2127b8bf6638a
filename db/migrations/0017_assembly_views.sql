-- Issue 22: views move out of the wide `assemblies` row into a narrow table of their own. The view
-- counter's flush (server/infra/view-counter.ts) wrote a 4 KiB page of `assemblies` into the WAL for
-- nearly every assembly it counted (a few rows per page); `assembly_views` holds a few hundred rows
-- per page. Every assembly has its row: the insert trigger makes it, the foreign key drops it.
-- hot_rank (migration 0013's rounded key) keeps its formula; its update trigger is split in two, one
-- per table holding an input (likes and created_at here, views there).
CREATE TABLE `assembly_views` (
	`assembly_id` integer PRIMARY KEY NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`assembly_id`) REFERENCES `assemblies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `assembly_views` (`assembly_id`, `views`) SELECT `id`, `views` FROM `assemblies`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `assemblies_hot_rank_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `assemblies_hot_rank_update`;
--> statement-breakpoint
ALTER TABLE `assemblies` DROP COLUMN `views`;
--> statement-breakpoint
CREATE TRIGGER `assemblies_hot_rank_insert` AFTER INSERT ON `assemblies` BEGIN
  INSERT INTO `assembly_views` (`assembly_id`, `views`) VALUES (new.id, 0);
  UPDATE `assemblies` SET `hot_rank` = round(log10(new.likes * 2 + 1), 2) + new.created_at / 43200000.0 WHERE `id` = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `assemblies_hot_rank_update` AFTER UPDATE OF `likes`, `created_at` ON `assemblies`
WHEN round(log10(new.likes * 2 + coalesce((SELECT `views` FROM `assembly_views` WHERE `assembly_id` = new.id), 0) / 10.0 + 1), 2)
    IS NOT round(log10(old.likes * 2 + coalesce((SELECT `views` FROM `assembly_views` WHERE `assembly_id` = new.id), 0) / 10.0 + 1), 2)
  OR new.created_at IS NOT old.created_at BEGIN
  UPDATE `assemblies` SET `hot_rank` = round(log10(new.likes * 2 + coalesce((SELECT `views` FROM `assembly_views` WHERE `assembly_id` = new.id), 0) / 10.0 + 1), 2)
    + new.created_at / 43200000.0 WHERE `id` = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `assembly_views_hot_rank_update` AFTER UPDATE OF `views` ON `assembly_views`
WHEN round(log10((SELECT `likes` FROM `assemblies` WHERE `id` = new.assembly_id) * 2 + new.views / 10.0 + 1), 2)
  IS NOT round(log10((SELECT `likes` FROM `assemblies` WHERE `id` = new.assembly_id) * 2 + old.views / 10.0 + 1), 2) BEGIN
  UPDATE `assemblies` SET `hot_rank` = round(log10(`likes` * 2 + new.views / 10.0 + 1), 2) + `created_at` / 43200000.0 WHERE `id` = new.assembly_id;
END;
