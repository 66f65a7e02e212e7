import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 64 }).notNull(),
  identification: varchar('identification', { length: 64 }).notNull().unique(),
  /** Built-in roles (SUPERADMIN, ADMIN, BATTERYMANAGEMENT) cannot be deleted. */
  builtin: boolean('builtin').notNull().default(false),
  /** Path of the user who created it: a role is visible in its creator's subtree ('/' = built-in). */
  ownerPath: text('owner_path').notNull().default('/'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const menus = pgTable(
  'menus',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id').notNull().default(0),
    name: varchar('name', { length: 64 }).notNull(),
    nameEn: varchar('name_en', { length: 64 }).notNull().default(''),
    nameEs: varchar('name_es', { length: 64 }).notNull().default(''),
    nameJa: varchar('name_ja', { length: 64 }).notNull().default(''),
    jumpType: smallint('jump_type').notNull().default(1),
    menuUrl: varchar('menu_url', { length: 256 }).notNull(),
    menuType: smallint('menu_type').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    icon: varchar('icon', { length: 64 }).notNull().default(''),
    identification: varchar('identification', { length: 64 }).notNull().unique(),
    isShow: smallint('is_show').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('menus_parent_idx').on(t.parentId)],
);

export const permissions = pgTable(
  'permissions',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    identification: varchar('identification', { length: 64 }).notNull().unique(),
    menuId: integer('menu_id')
      .notNull()
      .references(() => menus.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('permissions_menu_idx').on(t.menuId)],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] }), index('role_permissions_perm_idx').on(t.permissionId)],
);
