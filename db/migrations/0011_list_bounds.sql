-- Issue 16: every list is served by an index of the listable rows, so no request sorts or counts
-- every row. hot_rank is sort=hottest's time-invariant key, log10(2 x likes + views / 10 + 1) +
-- created_at / 12 h (db/schema/assembly.ts HOT_DECAY_MS = 43,200,000 ms), written by triggers:
-- libSQL's log10 is not deterministic, so it cannot be a generated column or an index expression.
-- rating_rank is sort=rating's smoothed average, a virtual generated column. The key is filled and
-- the counts taken before the indexes are built, so the fill does not maintain them row by row.
CREATE TABLE `assembly_listable_counts` (
	`ship_id` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `assemblies` ADD `hot_rank` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `assemblies` ADD `rating_rank` real GENERATED ALWAYS AS ((rating_sum + 15) * 1.0 / (rating_count + 5)) VIRTUAL;--> statement-breakpoint
UPDATE `assemblies` SET `hot_rank` = log10(`likes` * 2 + `views` / 10.0 + 1) + `created_at` / 43200000.0;
--> statement-breakpoint
INSERT INTO `assembly_listable_counts` (`ship_id`, `n`)
  SELECT `ship_id`, count(*) FROM `assemblies` WHERE deleted_at IS NULL AND is_public = 1 GROUP BY `ship_id`;
--> statement-breakpoint
-- Every writer (the services, the CLI, another instance, the benchmark's generator) goes through these.
-- The UPDATEs below set hot_rank or the counts only, which fire none of the triggers on `assemblies`.
CREATE TRIGGER `assemblies_hot_rank_insert` AFTER INSERT ON `assemblies` BEGIN
  UPDATE `assemblies` SET `hot_rank` = log10(new.likes * 2 + new.views / 10.0 + 1) + new.created_at / 43200000.0 WHERE `id` = new.id;
END;
--> statement-breakpoint
-- Likes are written by likeAssembly, views by the once-a-second flush (server/services/view-counter.ts).
CREATE TRIGGER `assemblies_hot_rank_update` AFTER UPDATE OF `likes`, `views`, `created_at` ON `assemblies` BEGIN
  UPDATE `assemblies` SET `hot_rank` = log10(new.likes * 2 + new.views / 10.0 + 1) + new.created_at / 43200000.0 WHERE `id` = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `assembly_listable_counts_insert` AFTER INSERT ON `assemblies`
WHEN new.is_public = 1 AND new.deleted_at IS NULL BEGIN
  INSERT OR IGNORE INTO `assembly_listable_counts` (`ship_id`, `n`) VALUES (new.ship_id, 0);
  UPDATE `assembly_listable_counts` SET `n` = `n` + 1 WHERE `ship_id` = new.ship_id;
END;
--> statement-breakpoint
CREATE TRIGGER `assembly_listable_counts_delete` AFTER DELETE ON `assemblies`
WHEN old.is_public = 1 AND old.deleted_at IS NULL BEGIN
  UPDATE `assembly_listable_counts` SET `n` = `n` - 1 WHERE `ship_id` = old.ship_id;
END;
--> statement-breakpoint
-- Publish state, trash, restore and a change of hull move a row between counts (or in and out of them).
CREATE TRIGGER `assembly_listable_counts_update` AFTER UPDATE OF `ship_id`, `is_public`, `deleted_at` ON `assemblies` BEGIN
  UPDATE `assembly_listable_counts` SET `n` = `n` - 1 WHERE `ship_id` = old.ship_id AND old.is_public = 1 AND old.deleted_at IS NULL;
  INSERT OR IGNORE INTO `assembly_listable_counts` (`ship_id`, `n`) SELECT new.ship_id, 0 WHERE new.is_public = 1 AND new.deleted_at IS NULL;
  UPDATE `assembly_listable_counts` SET `n` = `n` + 1 WHERE `ship_id` = new.ship_id AND new.is_public = 1 AND new.deleted_at IS NULL;
END;
--> statement-breakpoint
CREATE INDEX `assemblies_hot` ON `assemblies` (`hot_rank`) WHERE deleted_at IS NULL AND is_public = 1;--> statement-breakpoint
CREATE INDEX `assemblies_rating` ON `assemblies` (`rating_rank`,`rating_count`) WHERE deleted_at IS NULL AND is_public = 1;--> statement-breakpoint
CREATE INDEX `assemblies_ship_latest` ON `assemblies` (`ship_id`) WHERE deleted_at IS NULL AND is_public = 1;--> statement-breakpoint
CREATE INDEX `assemblies_ship_hot` ON `assemblies` (`ship_id`,`hot_rank`) WHERE deleted_at IS NULL AND is_public = 1;--> statement-breakpoint
CREATE INDEX `assemblies_ship_rating` ON `assemblies` (`ship_id`,`rating_rank`,`rating_count`) WHERE deleted_at IS NULL AND is_public = 1;
