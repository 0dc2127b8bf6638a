-- Issue 31: the nearby search got slower with other people's private points. It walked the whole
-- latitude band of map_points_place and tested each row's access (its collection, its shares). Now
-- what each caller may read is indexed apart from what they may not:
-- - readable_by_anyone: is_public for an orphan point, its collection's is_public otherwise, written
--   by the triggers below in the same statement as the change (a point inserted, moved, made public
--   or private; a collection made public or private), whatever code runs it;
-- - latitude_cell (tenths of a degree): the public points are sought cell by cell in the longitude
--   range of the search box, instead of along the band of latitude round the globe;
-- - three partial indexes: the public points; each owner's other points; each collection's other
--   points (for the users it is shared with).
DROP INDEX `map_points_place`;--> statement-breakpoint
ALTER TABLE `map_points` ADD `readable_by_anyone` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `map_points` ADD `latitude_cell` integer GENERATED ALWAYS AS (CAST((latitude + 90) * 10 AS INTEGER)) VIRTUAL;--> statement-breakpoint
UPDATE `map_points` SET `readable_by_anyone` = 1
WHERE (`collection_id` IS NULL AND `is_public` = 1) OR `collection_id` IN (SELECT `id` FROM `map_collections` WHERE `is_public` = 1);--> statement-breakpoint
CREATE INDEX `map_points_public_place` ON `map_points` (`latitude_cell`,`longitude`,`latitude`,`id`) WHERE readable_by_anyone = 1;--> statement-breakpoint
CREATE INDEX `map_points_owner_private_place` ON `map_points` (`owner_id`,`latitude`,`longitude`,`id`) WHERE readable_by_anyone = 0;--> statement-breakpoint
CREATE INDEX `map_points_collection_private_place` ON `map_points` (`collection_id`,`latitude`,`longitude`,`id`) WHERE readable_by_anyone = 0 AND collection_id IS NOT NULL;--> statement-breakpoint
-- A new point: its own flag as an orphan, its collection's in a collection.
CREATE TRIGGER `map_points_readable_insert` AFTER INSERT ON `map_points`
WHEN new.readable_by_anyone IS NOT (CASE WHEN new.collection_id IS NULL THEN new.is_public
  ELSE coalesce((SELECT `is_public` FROM `map_collections` WHERE `id` = new.collection_id), 0) END) BEGIN
  UPDATE `map_points` SET `readable_by_anyone` = (CASE WHEN new.collection_id IS NULL THEN new.is_public
    ELSE coalesce((SELECT `is_public` FROM `map_collections` WHERE `id` = new.collection_id), 0) END)
  WHERE `id` = new.id;
END;
--> statement-breakpoint
-- Moved into or out of a collection, its own flag changed, or the column written by anything else.
CREATE TRIGGER `map_points_readable_update` AFTER UPDATE OF `collection_id`, `is_public`, `readable_by_anyone` ON `map_points`
WHEN new.readable_by_anyone IS NOT (CASE WHEN new.collection_id IS NULL THEN new.is_public
  ELSE coalesce((SELECT `is_public` FROM `map_collections` WHERE `id` = new.collection_id), 0) END) BEGIN
  UPDATE `map_points` SET `readable_by_anyone` = (CASE WHEN new.collection_id IS NULL THEN new.is_public
    ELSE coalesce((SELECT `is_public` FROM `map_collections` WHERE `id` = new.collection_id), 0) END)
  WHERE `id` = new.id;
END;
--> statement-breakpoint
-- A collection made public or private: its points (at most 1,000) with it.
CREATE TRIGGER `map_collections_readable_update` AFTER UPDATE OF `is_public` ON `map_collections`
WHEN new.is_public IS NOT old.is_public BEGIN
  UPDATE `map_points` SET `readable_by_anyone` = new.is_public WHERE `collection_id` = new.id;
END;
