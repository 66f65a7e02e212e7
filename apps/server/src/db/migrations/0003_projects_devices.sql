CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"sn" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"type_id" integer NOT NULL,
	"project_id" integer,
	"parent_id" integer,
	"owner_path" text NOT NULL,
	"address" varchar(256) DEFAULT '' NOT NULL,
	"map_mode" smallint DEFAULT 0 NOT NULL,
	"lng" double precision,
	"lat" double precision,
	"remarks" text DEFAULT '' NOT NULL,
	"alarm_phone" varchar(32) DEFAULT '' NOT NULL,
	"warning_level" smallint DEFAULT 0 NOT NULL,
	"bt_code" varchar(64) DEFAULT '' NOT NULL,
	"version_4g" varchar(64) DEFAULT '' NOT NULL,
	"hardware_version" varchar(64) DEFAULT '' NOT NULL,
	"sim_number" varchar(24) DEFAULT '' NOT NULL,
	"imei" varchar(17) DEFAULT '' NOT NULL,
	"manufacturer_model" varchar(64) DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"last_seen_at" timestamp with time zone,
	"credential_hash" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_sn_unique" UNIQUE("sn"),
	CONSTRAINT "devices_warning_level_chk" CHECK (warning_level between 0 and 4)
);
--> statement-breakpoint
CREATE TABLE "project_users" (
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "project_users_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"address" varchar(256) DEFAULT '' NOT NULL,
	"lng" double precision,
	"lat" double precision,
	"weather" boolean DEFAULT false NOT NULL,
	"map" boolean DEFAULT true NOT NULL,
	"owner_id" integer NOT NULL,
	"owner_path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "road_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"points" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_type_id_device_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."device_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_users" ADD CONSTRAINT "project_users_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_users" ADD CONSTRAINT "project_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "road_sections" ADD CONSTRAINT "road_sections_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_project_idx" ON "devices" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "devices_type_idx" ON "devices" USING btree ("type_id");--> statement-breakpoint
CREATE INDEX "devices_owner_path_idx" ON "devices" USING btree ("owner_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "devices_parent_idx" ON "devices" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "devices_online_idx" ON "devices" USING btree ("online");--> statement-breakpoint
CREATE INDEX "devices_warning_idx" ON "devices" USING btree ("warning_level");--> statement-breakpoint
CREATE INDEX "devices_created_idx" ON "devices" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "devices_imei_idx" ON "devices" USING btree ("imei");--> statement-breakpoint
CREATE INDEX "devices_sim_idx" ON "devices" USING btree ("sim_number");--> statement-breakpoint
CREATE INDEX "devices_name_idx" ON "devices" USING btree ("name");--> statement-breakpoint
CREATE INDEX "project_users_user_idx" ON "project_users" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "projects_owner_path_idx" ON "projects" USING btree ("owner_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "projects_owner_idx" ON "projects" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "projects_created_idx" ON "projects" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "road_sections_project_idx" ON "road_sections" USING btree ("project_id","sort");