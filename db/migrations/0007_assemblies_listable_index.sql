DROP INDEX `assemblies_listing`;--> statement-breakpoint
CREATE INDEX `assemblies_listable` ON `assemblies` (`deleted_at`,`is_public`);