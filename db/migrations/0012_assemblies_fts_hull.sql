-- Issue 16: a keyword search with a shipType filters by hull inside FTS5. The index gets a third
-- column, hull_token ('h' || hex(ship_id), a virtual generated column of `assemblies`), so the hull
-- class is an OR of exact terms ANDed with the keyword's words: FTS5 intersects the lists by seeking,
-- where the search used to join every match of the keyword to its row to test the hull (a rare class
-- among the 100,000 matches of a common word: every one of them, 25 to 135 ms over 1,000,000
-- assemblies). The keyword's words are restricted to {name tags}. Rebuilt as 0010 did (FTS5 options
-- and columns cannot be altered), listable rows only, with 0006's triggers replaced to feed all three
-- columns and to follow a change of hull. Never run FTS5 'rebuild' on this table (see 0006).
ALTER TABLE `assemblies` ADD `hull_token` text GENERATED ALWAYS AS ('h' || hex(ship_id)) VIRTUAL;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `assemblies_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `assemblies_fts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `assemblies_fts_update`;
--> statement-breakpoint
DROP TABLE `assemblies_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `assemblies_fts` USING fts5(name, tags, hull_token, content='assemblies', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4 5 6 7 8 9 10');
--> statement-breakpoint
INSERT INTO assemblies_fts(rowid, name, tags, hull_token) SELECT id, name, tags, hull_token FROM assemblies WHERE is_public = 1 AND deleted_at IS NULL;
--> statement-breakpoint
CREATE TRIGGER `assemblies_fts_insert` AFTER INSERT ON `assemblies`
WHEN new.is_public = 1 AND new.deleted_at IS NULL BEGIN
  INSERT INTO assemblies_fts(rowid, name, tags, hull_token) VALUES (new.id, new.name, new.tags, new.hull_token);
END;
--> statement-breakpoint
CREATE TRIGGER `assemblies_fts_delete` AFTER DELETE ON `assemblies`
WHEN old.is_public = 1 AND old.deleted_at IS NULL BEGIN
  INSERT INTO assemblies_fts(assemblies_fts, rowid, name, tags, hull_token) VALUES ('delete', old.id, old.name, old.tags, old.hull_token);
END;
--> statement-breakpoint
-- As 0006's, plus ship_id: a change of hull re-indexes the row. Views, likes, ratings and hot_rank never touch the index.
CREATE TRIGGER `assemblies_fts_update` AFTER UPDATE OF name, tags, ship_id, is_public, deleted_at ON `assemblies` BEGIN
  INSERT INTO assemblies_fts(assemblies_fts, rowid, name, tags, hull_token)
    SELECT 'delete', old.id, old.name, old.tags, old.hull_token WHERE old.is_public = 1 AND old.deleted_at IS NULL;
  INSERT INTO assemblies_fts(rowid, name, tags, hull_token)
    SELECT new.id, new.name, new.tags, new.hull_token WHERE new.is_public = 1 AND new.deleted_at IS NULL;
END;
