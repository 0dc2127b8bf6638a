-- Keyword search over assembly names and tags (FTS5, external content: the text lives only in `assemblies`).
CREATE VIRTUAL TABLE `assemblies_fts` USING fts5(name, tags, content='assemblies', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `assemblies_fts_insert` AFTER INSERT ON `assemblies` BEGIN
  INSERT INTO assemblies_fts(rowid, name, tags) VALUES (new.id, new.name, new.tags);
END;
--> statement-breakpoint
CREATE TRIGGER `assemblies_fts_delete` AFTER DELETE ON `assemblies` BEGIN
  INSERT INTO assemblies_fts(assemblies_fts, rowid, name, tags) VALUES ('delete', old.id, old.name, old.tags);
END;
--> statement-breakpoint
-- Only name and tag changes touch the index: view and like counters update often.
CREATE TRIGGER `assemblies_fts_update` AFTER UPDATE OF name, tags ON `assemblies` BEGIN
  INSERT INTO assemblies_fts(assemblies_fts, rowid, name, tags) VALUES ('delete', old.id, old.name, old.tags);
  INSERT INTO assemblies_fts(rowid, name, tags) VALUES (new.id, new.name, new.tags);
END;
--> statement-breakpoint
-- Rebuild from any rows that already exist (none on a fresh database).
INSERT INTO assemblies_fts(assemblies_fts) VALUES ('rebuild');
