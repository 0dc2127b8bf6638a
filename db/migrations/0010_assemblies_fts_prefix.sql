-- Issue 7: FTS5 prefix indexes for prefixes of 1 to 10 characters. Without them a prefix query
-- ("storm"*) merges the whole document list of every term with that prefix before it can walk the
-- matches newest first: 4 to 12 ms per common word over 1,000,000 assemblies, 29 ms for "s"*. With
-- them a prefix of up to 10 characters is one more term, walked and stopped like a whole word
-- (under 1 ms), so every word of a search can be a prefix again. Costs about 3.5 times the index size
-- (bench/README.md). FTS5 options cannot be altered: the table is rebuilt, under the same name, so the
-- triggers of 0006 (on `assemblies`) keep feeding it. Listable rows only, as in 0006.
DROP TABLE `assemblies_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `assemblies_fts` USING fts5(name, tags, content='assemblies', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4 5 6 7 8 9 10');
--> statement-breakpoint
INSERT INTO assemblies_fts(rowid, name, tags) SELECT id, name, tags FROM assemblies WHERE is_public = 1 AND deleted_at IS NULL;
