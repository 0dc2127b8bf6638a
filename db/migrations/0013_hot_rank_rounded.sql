-- Issue 16: the interaction term of hot_rank is rounded to 0.01 (steps of 2.3% of 2 x likes + views / 10
-- + 1), and the update trigger rewrites hot_rank only when that rounded term changes. With 0011's
-- exact key every view flush moved each viewed row in assemblies_hot and assemblies_ship_hot: a flush
-- of 2,000 assemblies took ~190 ms instead of ~90 before 0011 (1,000,000 assemblies); rounded to 0.001
-- ~150 ms, to 0.01 ~105 ms, as one more view of an assembly with some interaction rarely moves its key.
-- The indexes are dropped for the refill of the rounded keys and built again after it.
DROP TRIGGER IF EXISTS `assemblies_hot_rank_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `assemblies_hot_rank_update`;
--> statement-breakpoint
DROP INDEX IF EXISTS `assemblies_hot`;
--> statement-breakpoint
DROP INDEX IF EXISTS `assemblies_ship_hot`;
--> statement-breakpoint
UPDATE `assemblies` SET `hot_rank` = round(log10(`likes` * 2 + `views` / 10.0 + 1), 2) + `created_at` / 43200000.0;
--> statement-breakpoint
CREATE TRIGGER `assemblies_hot_rank_insert` AFTER INSERT ON `assemblies` BEGIN
  UPDATE `assemblies` SET `hot_rank` = round(log10(new.likes * 2 + new.views / 10.0 + 1), 2) + new.created_at / 43200000.0 WHERE `id` = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `assemblies_hot_rank_update` AFTER UPDATE OF `likes`, `views`, `created_at` ON `assemblies`
WHEN round(log10(new.likes * 2 + new.views / 10.0 + 1), 2) IS NOT round(log10(old.likes * 2 + old.views / 10.0 + 1), 2)
  OR new.created_at IS NOT old.created_at BEGIN
  UPDATE `assemblies` SET `hot_rank` = round(log10(new.likes * 2 + new.views / 10.0 + 1), 2) + new.created_at / 43200000.0 WHERE `id` = new.id;
END;
--> statement-breakpoint
CREATE INDEX `assemblies_hot` ON `assemblies` (`hot_rank`) WHERE deleted_at IS NULL AND is_public = 1;
--> statement-breakpoint
CREATE INDEX `assemblies_ship_hot` ON `assemblies` (`ship_id`,`hot_rank`) WHERE deleted_at IS NULL AND is_public = 1;
