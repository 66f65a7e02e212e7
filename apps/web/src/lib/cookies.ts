import Cookies from 'js-cookie';

/** Cookie names of §9: the session token, the UI language, the sidebar state and the UI size. */
const TOKEN = 'Admin-Token';
const LANGUAGE = 'language';
const SIDEBAR = 'sidebarStatus';
const SIZE = 'size';

/** The sizes of the console's controls (antd's component sizes). */
export const UI_SIZES = ['small', 'middle', 'large'] as const;
export type UiSize = (typeof UI_SIZES)[number];

export function getToken(): string | undefined {
  return Cookies.get(TOKEN) || undefined;
}

/**
 * A session cookie (gone with the browser), Secure over https. The server reads the token only
 * from the Authorization header, never from the cookie, so the cookie cannot be used for CSRF.
 */
export function setToken(token: string): void {
  const secure = typeof location !== 'undefined' && location.protocol === 'https:';
  Cookies.set(TOKEN, token, { sameSite: 'Strict', secure });
}

export function removeToken(): void {
  Cookies.remove(TOKEN);
}

export function getLanguageCookie(): string | undefined {
  return Cookies.get(LANGUAGE) || undefined;
}

export function setLanguageCookie(language: string): void {
  Cookies.set(LANGUAGE, language, { expires: 365, sameSite: 'Lax' });
}

/** Sidebar opened unless the cookie says '0' (closed). */
export function getSidebarOpened(): boolean {
  return Cookies.get(SIDEBAR) !== '0';
}

export function setSidebarOpened(opened: boolean): void {
  Cookies.set(SIDEBAR, opened ? '1' : '0', { expires: 365, sameSite: 'Lax' });
}

/** The UI size of §9, `middle` unless the cookie names another. */
export function getSizeCookie(): UiSize {
  const v = Cookies.get(SIZE);
  return (UI_SIZES as readonly string[]).includes(v ?? '') ? (v as UiSize) : 'middle';
}

export function setSizeCookie(size: UiSize): void {
  Cookies.set(SIZE, size, { expires: 365, sameSite: 'Lax' });
}
