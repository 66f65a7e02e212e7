import { jsonb, pgTable, smallint, timestamp } from 'drizzle-orm/pg-core';

/** One row (id 1) holding the site configuration of §1 as validated JSON. */
export const siteConfig = pgTable('site_config', {
  id: smallint('id').primaryKey().default(1),
  data: jsonb('data').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
