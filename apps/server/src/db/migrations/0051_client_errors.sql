CREATE TABLE "client_errors" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(16) NOT NULL,
	"message" varchar(500) NOT NULL,
	"stack" text DEFAULT '' NOT NULL,
	"route" varchar(256) NOT NULL,
	"version" varchar(64) NOT NULL,
	"user_agent" varchar(256) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "client_errors_created_idx" ON "client_errors" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "client_errors_kind_idx" ON "client_errors" USING btree ("kind","created_at","id");--> statement-breakpoint
CREATE INDEX "client_errors_route_idx" ON "client_errors" USING btree ("route" text_pattern_ops,"created_at");--> statement-breakpoint
CREATE INDEX "client_errors_version_idx" ON "client_errors" USING btree ("version","created_at");--> statement-breakpoint
CREATE INDEX "client_errors_message_trgm_idx" ON "client_errors" USING gin (lower("message") gin_trgm_ops);