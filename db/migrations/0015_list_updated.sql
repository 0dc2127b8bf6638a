-- Issue 18: sort=updated (the web client's sortField=updatedTime) and the date ranges of the list
-- (createdStart/End, updatedStart/End) walk partial indexes of the listable rows, like 0011's sorts:
-- one per column and one led by ship_id for a shipType, each walked in either direction.
CREATE INDEX `assemblies_updated` ON `assemblies` (`updated_at`) WHERE deleted_at IS NULL AND is_public = 1;--> statement-breakpoint
CREATE INDEX `assemblies_created` ON `assemblies` (`created_at`) WHERE deleted_at IS NULL AND is_public = 1;--> statement-breakpoint
CREATE INDEX `assemblies_ship_updated` ON `assemblies` (`ship_id`,`updated_at`) WHERE deleted_at IS NULL AND is_public = 1;--> statement-breakpoint
CREATE INDEX `assemblies_ship_created` ON `assemblies` (`ship_id`,`created_at`) WHERE deleted_at IS NULL AND is_public = 1;