/**
 * Shared helpers of the end-to-end specs: API login (to keep UI logins and the server's login
 * rate limit low), the session cookie, envelope calls and a guard against uncaught page errors.
 */
import {
  test as base,
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { ADMIN_PASSWORD, CAPTCHA_URL, PORTS } from './env';

export { expect };

export const MAIN_URL = `http://127.0.0.1:${PORTS.main}`;
export { CAPTCHA_URL };
export const API = '/api/v1';
export const ADMIN = { username: 'admin', password: ADMIN_PASSWORD } as const;
/** apps/web/src/lib/cookies.ts */
export const TOKEN_COOKIE = 'Admin-Token';
export const LANGUAGE_COOKIE = 'language';

/** The §7 envelope every API answer carries. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** Calls the API with a bearer token and returns the HTTP status with the parsed envelope. */
export async function callApi<T = unknown>(
  request: APIRequestContext,
  method: 'GET' | 'POST',
  path: string,
  opts: { token?: string; data?: unknown; baseURL?: string } = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const url = `${opts.baseURL ?? MAIN_URL}${API}${path}`;
  const headers: Record<string, string> = opts.token ? { Authorization: `Bearer ${opts.token}` } : {};
  const res = await request.fetch(url, {
    method,
    headers,
    ...(method === 'POST' ? { data: opts.data ?? {} } : {}),
  });
  return { status: res.status(), body: (await res.json()) as Envelope<T> };
}

/** POST /user/login on the captcha-off server; returns the session token. */
export async function apiLogin(request: APIRequestContext, baseURL = MAIN_URL): Promise<string> {
  const { body } = await callApi<{ token: string }>(request, 'POST', '/user/login', {
    baseURL,
    data: { username: ADMIN.username, password: ADMIN.password, captcha: '', key: '' },
  });
  expect(body.code, `API login failed: ${body.message}`).toBe(20000);
  return body.data.token;
}

/**
 * Creates a company account (type 1, battery-management role) through the API as the
 * administrator and signs it in; returns its session token.
 */
export async function createCompanyUser(request: APIRequestContext, username: string, password: string): Promise<string> {
  const admin = await apiLogin(request);
  const roles = await callApi<{ items: { id: number; identification: string }[] }>(request, 'GET', '/role/getlist?limit=200', {
    token: admin,
  });
  const roleId = roles.body.data.items.find((r) => r.identification === 'BATTERYMANAGEMENT')!.id;
  const added = await callApi(request, 'POST', '/user/add', {
    token: admin,
    data: { username, password, type: 1, roleId, corporateName: 'Acme Energy', corporateAddress: '1 Harbour Road', contactNumber: '555 0101' },
  });
  expect(added.body.code, `user/add failed: ${added.body.message}`).toBe(20000);
  const login = await callApi<{ token: string }>(request, 'POST', '/user/login', {
    data: { username, password, captcha: '', key: '' },
  });
  expect(login.body.code, `login failed: ${login.body.message}`).toBe(20000);
  return login.body.data.token;
}

/** Puts a token where the console looks for it (the `Admin-Token` cookie). */
export async function setTokenCookie(context: BrowserContext, token: string, url = MAIN_URL) {
  await context.addCookies([{ name: TOKEN_COOKIE, value: token, url, sameSite: 'Lax' }]);
}

export async function tokenCookie(context: BrowserContext, url = MAIN_URL): Promise<string | undefined> {
  const cookies = await context.cookies(url);
  return cookies.find((c) => c.name === TOKEN_COOKIE)?.value;
}

/** Fills and submits the login form (captcha-off server). */
export async function uiLogin(page: Page, password: string = ADMIN.password) {
  await page.getByTestId('login-username').fill(ADMIN.username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Whole visible text equal to `text` (accessible names also carry icon labels). */
export function exactText(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** The signed-in shell: sidebar, navbar and the tags bar. */
export function shell(page: Page) {
  const sidebar = page.getByTestId('sidebar');
  const tagsView = page.getByTestId('tags-view');
  return {
    sidebar,
    /** A sidebar entry (group title or page) by its visible title. */
    menuItem: (title: string): Locator =>
      sidebar.getByRole('menuitem').filter({ hasText: exactText(title) }),
    navbar: page.getByTestId('navbar'),
    tagsView,
    /** Every tab in the tags view (each is a `link`). */
    tags: tagsView.getByRole('link'),
    /** A tab by its visible title. */
    tag: (title: string): Locator => tagsView.getByRole('link').filter({ hasText: exactText(title) }),
    userMenu: page.getByTestId('user-menu'),
  };
}

/** Opens a page through the sidebar: expands `group` when needed, then clicks `item`. */
export async function openFromSidebar(page: Page, group: string, item: string) {
  const { menuItem } = shell(page);
  const entry = menuItem(item);
  if (!(await entry.isVisible())) await menuItem(group).click();
  await entry.click();
}

/**
 * Picks an option of an antd Select and checks the select now shows it. A click that lands while
 * the dropdown is still animating open can be lost; then the pick is tried again. `search` is
 * typed into a searchable select first, for options the server looks up by name.
 */
export async function pickOption(
  page: Page,
  select: Locator,
  text: string | RegExp,
  opts: { search?: string } = {},
) {
  const option = page
    .locator('.ant-select-dropdown .ant-select-item-option')
    .filter({ hasText: text })
    .filter({ visible: true })
    .first();
  await expect(async () => {
    if (!(await option.isVisible())) {
      await select.click();
      if (opts.search !== undefined) await select.locator('input').fill(opts.search);
    }
    await option.click({ timeout: 3_000 });
    await expect(select).toContainText(text, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

/** Live channel (contract `live.ts`): the server's answer to the socket's LOGIN message. */
const LIVE_LOGIN_OK = 111;

/**
 * Watches the console's live channel (`/api/v1/ws`); `loggedIn` turns true once the server has
 * authenticated the socket (the client sends LOGIN 1.5 s after the socket opens); `open` counts
 * its sockets not yet closed. Call before navigating.
 */
export function trackLiveChannel(page: Page): { readonly loggedIn: boolean; readonly open: number } {
  const state = { loggedIn: false, open: 0 };
  page.on('websocket', (ws) => {
    if (!ws.url().endsWith(`${API}/ws`)) return;
    state.open++;
    ws.on('close', () => state.open--);
    ws.on('framereceived', ({ payload }) => {
      try {
        if ((JSON.parse(String(payload)) as { type?: unknown }).type === LIVE_LOGIN_OK) {
          state.loggedIn = true;
        }
      } catch {
        // not a JSON frame
      }
    });
  });
  return state;
}

interface Fixtures {
  /** An admin session made through the API; its token is already in the page's cookie jar. */
  session: { token: string };
  /** Fails the test on an uncaught exception in the page. */
  pageErrors: void;
}

export const test = base.extend<Fixtures>({
  session: async ({ request, context }, use) => {
    const token = await apiLogin(request);
    await setTokenCookie(context, token);
    await use({ token });
  },
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.stack ?? err.message));
      await use();
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});
