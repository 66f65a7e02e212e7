import { LiveType, authRoutes, userRoutes } from '@iot/contract/plain';
import type { EndpointBody, EndpointData, Language, LoginBody, LoginResultDto, MenuNode, PermissionCode, UserInfo } from '@iot/contract';
import { useMemo } from 'react';
import i18n, { currentLanguage } from './i18n';
import { getToken, removeToken, setToken } from './cookies';
import { api } from './api';
import { ApiError, ClientCode } from './http';
import { feedbackMessage } from './feedback';
import { live } from './live';
import { showLogoutConfirm } from './logout-confirm';
import { buildMenuRoutes } from './menu-routes';
import { createStore, useStore } from './store';
import { clearTags } from './tags';

/**
 * §8 asks for exactly this Chinese text whatever the UI language, so it is not a translation key.
 */
const MENU_LOAD_ERROR = '菜单数据加载异常';

export interface SessionState {
  token: string | undefined;
  /**
   * idle: token known, user not loaded yet; ready: user and menus loaded; unreachable: the server
   * could not be asked (network failure, or a page unload cut the request): the token is kept.
   */
  status: 'idle' | 'loading' | 'ready' | 'unreachable';
  user: UserInfo | null;
  menus: MenuNode[];
}

const store = createStore<SessionState>({
  token: getToken(),
  status: 'idle',
  user: null,
  menus: [],
});

export const sessionStore = store;

export function useSession(): SessionState {
  return useStore(store);
}

/**
 * Whether the signed-in user holds a permission code, or any of a list of codes (a route that
 * accepts several): hide buttons, and skip calls the user may not make, with it.
 */
export function usePermission(code: PermissionCode | readonly PermissionCode[]): boolean {
  return useStore(store, (s) => {
    const held = s.user?.permissions;
    if (!held) return false;
    return typeof code === 'string' ? held.includes(code) : code.some((c) => held.includes(c));
  });
}

/**
 * Whether the user's menu tree grants a page (hidden pages included): link to a page, or offer a
 * step that opens it, only then. The same test as the router's, which builds its routes from
 * the same tree.
 */
export function useMenuPage(path: string): boolean {
  const menus = useStore(store, (s) => s.menus);
  return useMemo(() => buildMenuRoutes(menus, currentLanguage()).some((r) => r.path === path), [menus, path]);
}

export async function login(body: LoginBody): Promise<LoginResultDto> {
  const result = await api(authRoutes.login, { body });
  setToken(result.token);
  store.set({ token: result.token, status: 'idle', user: null, menus: [] });
  return result;
}

async function fetchUserInfo(): Promise<UserInfo> {
  const info: UserInfo | null = await api(userRoutes.info, { silent: true });
  if (!info) throw new Error(i18n.t('errors:verifyFailed'));
  if (!Array.isArray(info.roles) || info.roles.length === 0) {
    throw new Error(i18n.t('errors:rolesRequired'));
  }
  return info;
}

async function fetchMenus(): Promise<MenuNode[]> {
  try {
    const menus = await api(userRoutes.menus, { silent: true });
    return Array.isArray(menus) ? menus : [];
  } catch (err) {
    if (err instanceof ApiError && err.code === ClientCode.NETWORK) throw err;
    feedbackMessage().error({ content: MENU_LOAD_ERROR, duration: 2 });
    return [];
  }
}

/**
 * §1: the UI language comes from the cookie or the browser, never from the server; the server
 * keeps a copy of it so that its own texts (mails, pushes) follow the user's language. The copy
 * is written only when it differs from the stored one, and remembered at once, so a switch sends
 * one request and a login in the same language sends none. Before the user is loaded nothing is
 * sent: loadSession compares once it knows the stored language.
 */
export function saveLanguage(language: Language): Promise<void> {
  const previous = store.get().user?.language;
  if (!store.get().token || previous === undefined || previous === language) return Promise.resolve();
  patchUser({ language });
  return api(userRoutes.preferences, { body: { language }, silent: true }).then(
    () => undefined,
    () => {
      // Not stored: forget the optimistic copy so the next switch tries again.
      if (store.get().user?.language === language) patchUser({ language: previous });
    },
  );
}

/** First navigation with a token: user info and the menu tree; starts the live channel. */
export async function loadSession(beforeReady?: (user: UserInfo) => Promise<void>): Promise<void> {
  const token = store.get().token;
  // Once per session: a second call while loading (React's strict mode runs effects twice) or
  // after it would repeat every request, the language save included.
  if (!token || store.get().status !== 'idle') return;
  store.set((s) => ({ ...s, status: 'loading' }));
  try {
    // Both at once: the menus do not wait for the user (the token names it).
    const [user, menus] = await Promise.all([fetchUserInfo(), fetchMenus()]);
    menusLoadedAt = Date.now();
    // Before the store says ready: that renders the whole signed-in frame at once (0.3 s of
    // main thread on the dashboard), and what `beforeReady` asks for (the first page's data)
    // would otherwise leave only after it.
    await beforeReady?.(user).catch(() => undefined);
    store.set({ token, status: 'ready', user, menus });
    void saveLanguage(currentLanguage());
    live.start({ userId: user.id, token });
  } catch (err) {
    // Only the server's word ends a session. A request that never got an answer (offline, or cut
    // short because the page is reloading right after login) keeps the token for the next try.
    const unanswered = err instanceof ApiError && err.code === ClientCode.NETWORK;
    store.set((s) => ({ ...s, status: unanswered ? 'unreachable' : 'idle' }));
    throw err;
  }
}

/** Tries again after `loadSession` could not reach the server. */
export function retrySession(): void {
  store.set((s) => (s.status === 'unreachable' ? { ...s, status: 'idle' } : s));
}

let menusLoadedAt = 0;

/** Reloads user info and menus after the server says they changed (MENUS_CHANGED). */
export async function reloadMenus(): Promise<void> {
  if (store.get().status !== 'ready') return;
  menusLoadedAt = Date.now();
  const [user, menus] = await Promise.all([fetchUserInfo(), fetchMenus()]);
  store.set((s) => ({ ...s, user, menus }));
}

/** Menus older than this are reloaded at the next navigation, so a missed push is caught up. */
const MENU_REFRESH_MS = 30_000;

/** Called on every navigation: refreshes permissions and menus when they are getting old. */
export function refreshMenusIfStale(): void {
  if (Date.now() - menusLoadedAt < MENU_REFRESH_MS) return;
  reloadMenus().catch(() => undefined);
}

export type ChangePasswordInput = EndpointBody<typeof userRoutes.changePassword>;

/** Changes the caller's password; answers how many of its other sessions were ended. */
export async function changePassword(input: ChangePasswordInput): Promise<EndpointData<typeof userRoutes.changePassword>> {
  return api(userRoutes.changePassword, { body: input, silent: true });
}

export function patchUser(patch: Partial<UserInfo>): void {
  store.set((s) => (s.user ? { ...s, user: { ...s.user, ...patch } } : s));
}

/** Forgets the session locally: token cookie, user, menus, tabs and the live channel (§4). */
export function resetSession(): void {
  live.stop();
  removeToken();
  clearTags();
  store.set({ token: undefined, status: 'idle', user: null, menus: [] });
}

export async function logout(): Promise<void> {
  // Stop the live channel first: the server pushes SESSION_ENDED for this very logout, which must
  // not open the "Confirm logout" box meant for sessions ended elsewhere.
  live.stop();
  try {
    await api(authRoutes.logout, { silent: true });
  } catch {
    // The server may already have ended the session; the local logout still happens.
  }
  resetSession();
}

live.subscribe((message) => {
  if (message.type === LiveType.SESSION_ENDED) {
    live.stop();
    showLogoutConfirm();
  } else if (message.type === LiveType.MENUS_CHANGED) {
    reloadMenus().catch(() => undefined);
  }
});
