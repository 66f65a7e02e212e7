DROP INDEX "devices_name_trgm_idx";--> statement-breakpoint
DROP INDEX "devices_sn_trgm_idx";