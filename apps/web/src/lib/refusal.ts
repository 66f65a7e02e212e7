import { SESSION_CODES } from '@iot/contract';
import { feedbackMessage } from './feedback';
import { ApiError, ClientCode, describeError, reportError } from './http';
import i18n from './i18n';

/**
 * The access-control API's refusals, by their (English) server message, with the console's own
 * text for each. Server messages are meant for API users and logs (docs/API.md); a refusal not
 * listed here falls back to the per-code text or the server's message.
 */
const KNOWN: ReadonlyArray<[RegExp, string]> = [
  [/^This menu has sub-menus/, 'menuHasChildren'],
  [/^This menu still owns permissions/, 'menuHasPermissions'],
  [/^a menu cannot be placed below itself/, 'menuCycle'],
  [/^no such parent menu/, 'noParentMenu'],
  [/^no such menu/, 'noMenu'],
  [/^This identification is already used/, 'identificationTaken'],
  [/^The console itself uses this permission code: it cannot be deleted/, 'consoleCodeDelete'],
  [/^The console itself uses this permission code: it cannot be renamed/, 'consoleCodeRename'],
  [/^This role is still given to users/, 'roleInUse'],
  [/^Built-in roles cannot be deleted/, 'builtinRoleDelete'],
  [/^The identification of a built-in role cannot change/, 'builtinRoleRename'],
  [/^You cannot change this role/, 'roleNotEditable'],
  [/^The super administrator holds every permission/, 'superPermissions'],
  [/^You cannot grant permissions you do not hold: (.*)$/, 'grantBeyondOwn'],
  [/^This role holds permissions you do not have: (.*)$/, 'roleBeyondOwn'],
  [/^Only a super administrator can give this role/, 'superRoleOnly'],
  [/^no such role/, 'noRole'],
  [/^no such parent user/, 'noParentUser'],
  [/^a user cannot be moved below itself/, 'userCycle'],
  [/^This user name is already taken/, 'usernameTaken'],
  [/^This user still has sub-users/, 'userHasChildren'],
  [/^This user holds permissions you do not have/, 'userStronger'],
  [/^You cannot change your own role, parent, type or state/, 'ownFixed'],
  [/^You cannot delete yourself/, 'deleteSelf'],
  [/^Use "change password" for your own account/, 'resetSelf'],
  [/^The last super administrator cannot be deleted/, 'lastSuperDelete'],
  [/^The last super administrator must stay enabled/, 'lastSuperKeep'],
  [/^A user can have at most (\d+) emails/, 'emailLimit'],
  [/^This email is already linked/, 'emailTaken'],
  [/^You cannot manage the emails of other users/, 'foreignEmails'],
];

/** The refusal in the UI language: a known reason translated, else the generic per-code text. */
export function refusalText(err: ApiError): string {
  for (const [pattern, key] of KNOWN) {
    const match = pattern.exec(err.message);
    if (match) return i18n.t(`refusals:${key}`, { detail: match[1] ?? '' });
  }
  // 403 says why in the server's words; the generic "no permission" text would hide the reason.
  if (err.code === 40300 && err.message) return err.message;
  return describeError(err);
}

/** Shows a failed change the §8 way (delayed 1 s, 3 s long), with `refusalText`. */
export function reportRefusal(err: ApiError): void {
  const generic =
    SESSION_CODES.includes(err.code) || err.code === ClientCode.NETWORK || err.code === ClientCode.EMPTY_BODY;
  if (generic) {
    reportError(err);
    return;
  }
  const content = refusalText(err);
  setTimeout(() => feedbackMessage().error({ content, duration: 3 }), 1000);
}

/** `.catch(reported)` after a `silent` call: shows the refusal, then rejects as before. */
export function reported(err: unknown): never {
  if (err instanceof ApiError) reportRefusal(err);
  throw err;
}
