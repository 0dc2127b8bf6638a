-- Issue 31: no name may pass for another account's. What each name looks like (its skeleton: case and
-- Unicode's confusables folded, server/domains/user/names.ts) is stored beside it and indexed, so that a
-- sign-up or a new display name is checked against every other account in one lookup. The skeletons
-- are computed in JavaScript (the confusables table), so rows stored before this migration are filled
-- at start-up (fillNameSkeletons), found through the partial index `users_name_skeletons_pending`,
-- which is empty once they are.
ALTER TABLE `users` ADD `username_skeleton` text;--> statement-breakpoint
ALTER TABLE `users` ADD `alternative_name_skeleton` text;--> statement-breakpoint
CREATE INDEX `users_username_skeleton` ON `users` (`username_skeleton`);--> statement-breakpoint
CREATE INDEX `users_alternative_name_skeleton` ON `users` (`alternative_name_skeleton`);--> statement-breakpoint
CREATE INDEX `users_name_skeletons_pending` ON `users` (`id`) WHERE username_skeleton IS NULL OR (alternative_name IS NOT NULL AND alternative_name_skeleton IS NULL);