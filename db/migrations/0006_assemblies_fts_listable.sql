-- Issue 7: the FTS5 index holds only LISTABLE assemblies (public and not in the trash), so a keyword
-- search needs no join to filter its matches and can walk them newest first (rowid order) and stop.
-- Replaces the three triggers of 0003_assemblies_fts. The index is external content: the FTS5
-- 'delete' command must be given exactly the values that were indexed, hence the OLD-row conditions.
-- Never run FTS5 'rebuild' on this table again: it would index every row of `assemblies`.
DROP TRIGGER IF EXISTS `assemblies_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `assemblies_fts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `assemblies_fts_update`;
--> statement-breakpoint
CREATE TRIGGER `assemblies_fts_insert` AFTER INSERT ON `assemblies`
WHEN new.is_public = 1 AND new.deleted_at IS NULL BEGIN
  INSERT INTO assemblies_fts(rowid, name, tags) VALUES (new.id, new.name, new.tags);
END;
--> statement-breakpoint
CREATE TRIGGER `assemblies_fts_delete` AFTER DELETE ON `assemblies`
WHEN old.is_public = 1 AND old.deleted_at IS NULL BEGIN
  INSERT INTO assemblies_fts(assemblies_fts, rowid, name, tags) VALUES ('delete', old.id, old.name, old.tags);
END;
--> statement-breakpoint
-- Publishing state and trash move rows in and out; view and like counters still never touch the index.
CREATE TRIGGER `assemblies_fts_update` AFTER UPDATE OF name, tags, is_public, deleted_at ON `assemblies` BEGIN
  INSERT INTO assemblies_fts(assemblies_fts, rowid, name, tags)
    SELECT 'delete', old.id, old.name, old.tags WHERE old.is_public = 1 AND old.deleted_at IS NULL;
  INSERT INTO assemblies_fts(rowid, name, tags)
    SELECT new.id, new.name, new.tags WHERE new.is_public = 1 AND new.deleted_at IS NULL;
END;
--> statement-breakpoint
-- Drop what 0003 indexed (private and trashed rows too) and index the listable rows only.
INSERT INTO assemblies_fts(assemblies_fts) VALUES ('delete-all');
--> statement-breakpoint
INSERT INTO assemblies_fts(rowid, name, tags) SELECT id, name, tags FROM assemblies WHERE is_public = 1 AND deleted_at IS NULL;
