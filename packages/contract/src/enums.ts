/** Enum tuples: one `as const` tuple feeds the database check, the zod enum and the UI. */

export const LANGUAGES = ['zh', 'en', 'es', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Numeric language codes of §1/§9 (zh 1, en 2); es and ja continue the sequence. */
export const LANGUAGE_CODES: Record<Language, number> = { zh: 1, en: 2, es: 3, ja: 4 };

export const DASHBOARD_STYLES = ['default', 'battery', 'voice'] as const;
export type DashboardStyle = (typeof DASHBOARD_STYLES)[number];

/** User type 0 is a platform administrator; type 1 a company (customer) account (§2, §6). */
export const USER_TYPES = [0, 1] as const;
export type UserType = (typeof USER_TYPES)[number];

/**
 * The super administrator's role: it holds every permission code implicitly, sees every user's
 * objects, and only it gives this role.
 */
export const SUPERADMIN = 'SUPERADMIN';
/** Built-in role identifications (§1, §3). */
export const BUILTIN_ROLES = [SUPERADMIN, 'ADMIN', 'BATTERYMANAGEMENT'] as const;
export type BuiltinRole = (typeof BUILTIN_ROLES)[number];

/** Menu jump type: in-site route or out-of-site link (§3). */
export const JUMP_TYPES = [1, 2] as const;
/** Menu type 1 is a route without a page component (§2); 0 loads a page. */
export const MENU_TYPES = [0, 1] as const;

/** `disabled`: the right password for a disabled account (answered like a wrong one). */
export const LOGIN_RESULTS = ['success', 'failure', 'lockout', 'disabled', 'logout'] as const;
export type LoginResult = (typeof LOGIN_RESULTS)[number];

export const SESSION_END_REASONS = ['logout', 'password', 'replaced', 'disabled', 'admin'] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];
