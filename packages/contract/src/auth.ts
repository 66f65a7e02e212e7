import { z } from 'zod';
import { ALARM_LEVELS, DASHBOARD_STYLES, LANGUAGES, USER_TYPES } from './enums.js';
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_MIN_MESSAGE, USER_LIMITS } from './limits.js';

export const captchaInfoSchema = z.object({
  key: z.string(),
  /** SVG markup of the challenge. */
  image: z.string(),
  /** Whether login requires it (false when the server runs with CAPTCHA=off). */
  required: z.boolean(),
});
export type CaptchaInfo = z.infer<typeof captchaInfoSchema>;

/** Query of GET /login/captchaAudio: the key of a captcha given by /login/captchaInfo. */
export const captchaAudioQuerySchema = z.object({ key: z.uuid() });

export const loginBodySchema = z.object({
  username: z.string().trim().min(1, 'username is required').max(USER_LIMITS.username),
  password: z.string().min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE).max(PASSWORD_MAX),
  captcha: z.string().trim().max(16).optional().default(''),
  key: z.string().max(64).optional().default(''),
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const sessionUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  type: z.union(USER_TYPES.map((t) => z.literal(t))),
  roleId: z.number().int(),
  language: z.enum(LANGUAGES),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const loginResultSchema = z.object({
  token: z.string(),
  user: sessionUserSchema,
}).meta({ id: 'LoginResult' });
export type LoginResultDto = z.infer<typeof loginResultSchema>;

export const userInfoSchema = z.object({
  id: z.number().int(),
  /** Role identifications; never empty (§6). */
  roles: z.array(z.string()).min(1),
  roleId: z.number().int(),
  roleName: z.string(),
  name: z.string(),
  avatar: z.string(),
  introduction: z.string(),
  type: z.union(USER_TYPES.map((t) => z.literal(t))),
  dashboardStyle: z.enum(DASHBOARD_STYLES),
  language: z.enum(LANGUAGES),
  corporateName: z.string(),
  corporateAddress: z.string(),
  contactNumber: z.string(),
  /** Alarm e-mails of the projects shared with the user (the owner of a project always gets them). */
  alarmMail: z.boolean(),
  /**
   * The lowest alarm level that pops up in the user's console, and the lowest mailed to the user
   * (levels ascend with severity). The defaults when the user never chose: ALARM_NOTIFY_LEVEL and
   * the server's ALARM_MAIL_MIN_LEVEL.
   */
  alarmPopupLevel: z.union(ALARM_LEVELS.map((l) => z.literal(l))),
  alarmMailLevel: z.union(ALARM_LEVELS.map((l) => z.literal(l))),
  /** The lowest level sent to the user's contact number by SMS, and by voice call; null: none. */
  alarmSmsLevel: z.union(ALARM_LEVELS.map((l) => z.literal(l))).nullable(),
  alarmCallLevel: z.union(ALARM_LEVELS.map((l) => z.literal(l))).nullable(),
  /** Permission codes the user holds: the web hides buttons with them. */
  permissions: z.array(z.string()),
}).meta({ id: 'UserInfo' });
export type UserInfo = z.infer<typeof userInfoSchema>;

export const changePasswordBodySchema = z
  .object({
    oldPassword: z.string().min(1, 'please enter old password').max(PASSWORD_MAX),
    newPassword: z.string().min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE).max(PASSWORD_MAX),
    confirmPassword: z.string().min(1, 'please enter the new password again').max(PASSWORD_MAX),
  })
  .refine((b) => b.newPassword === b.confirmPassword, {
    message: 'the two new passwords do not match',
    path: ['confirmPassword'],
  });
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const userInfoQuerySchema = z.object({ token: z.string().optional() });

/** Last logins shown on the dashboard. */
export const loginRecordSchema = z.object({
  result: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
});
export type LoginRecord = z.infer<typeof loginRecordSchema>;
