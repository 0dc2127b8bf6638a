-- The `war` data version (db/schema/war.ts dataVersions): every write to the war tables bumps it, so a
-- memo of war answers (server/services/war-memo.ts) knows at the cost of one read whether it is current,
-- whichever process wrote. Scores, zone control and hotspots are written and deleted only with their
-- snapshot (same transaction, ON DELETE CASCADE), so the snapshot's trigger covers them.
INSERT INTO `data_versions` (`name`, `version`) VALUES ('war', 1) ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER `seasons_bump_war_version_insert` AFTER INSERT ON `seasons` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `seasons_bump_war_version_update` AFTER UPDATE ON `seasons` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `seasons_bump_war_version_delete` AFTER DELETE ON `seasons` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `war_zones_bump_war_version_insert` AFTER INSERT ON `war_zones` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `war_zones_bump_war_version_update` AFTER UPDATE ON `war_zones` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `war_zones_bump_war_version_delete` AFTER DELETE ON `war_zones` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `war_companies_bump_war_version_insert` AFTER INSERT ON `war_companies` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `war_companies_bump_war_version_update` AFTER UPDATE ON `war_companies` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `war_companies_bump_war_version_delete` AFTER DELETE ON `war_companies` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `war_snapshots_bump_war_version_insert` AFTER INSERT ON `war_snapshots` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `war_snapshots_bump_war_version_update` AFTER UPDATE ON `war_snapshots` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
--> statement-breakpoint
CREATE TRIGGER `war_snapshots_bump_war_version_delete` AFTER DELETE ON `war_snapshots` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'war';
END;
