import type { Page, Response } from '@playwright/test';
import { ADMIN, API, expect, shell, test, uiLogin } from './fixtures';

/**
 * Loads `path` in the test's fresh page (empty cache) and answers the KB of script it downloaded,
 * as sent: every script of 1 KB or more must come compressed (brotli or gzip: the build's copies
 * the server sends, docs/decisions/0044), counted once `drawn` resolves and the network is idle.
 */
async function scriptKb(page: Page, path: string, drawn: () => Promise<void>): Promise<{ kb: number; files: number }> {
  const scripts: Response[] = [];
  page.on('response', (res) => {
    if ((res.headers()['content-type'] ?? '').includes('javascript')) scripts.push(res);
  });
  await page.goto(path);
  await drawn();
  await page.waitForLoadState('networkidle');
  let bytes = 0;
  for (const res of scripts) {
    const size = (await res.request().sizes()).responseBodySize;
    // The build leaves files under 1 KB as they are (build/precompress.ts).
    if (size >= 1024) expect(res.headers()['content-encoding'], res.url()).toMatch(/^(br|gzip)$/);
    bytes += size;
  }
  const encodings = [...new Set(scripts.map((r) => r.headers()['content-encoding'] ?? 'none'))].join(', ');
  console.log(`${path}: ${(bytes / 1024).toFixed(1)} KB of script in ${scripts.length} files as sent (${encodings})`);
  return { kb: bytes / 1024, files: scripts.length };
}

test.describe('login (captcha off)', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByTestId('login-form')).toBeVisible();
  });

  test('signs in to the dashboard with the Dashboard tab pinned', async ({ page }) => {
    // Captcha off: the form asks only for the username and the password.
    await expect(page.getByTestId('login-captcha')).toHaveCount(0);
    await uiLogin(page);

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Welcome back, ${ADMIN.username}`)).toBeVisible();
    const { tag, tags, userMenu } = shell(page);
    await expect(userMenu).toContainText(ADMIN.username);
    const dashboardTab = tag('Dashboard');
    await expect(dashboardTab).toBeVisible();
    await expect(tags.first()).toHaveText('Dashboard');
    // Pinned: it has no close button.
    await expect(dashboardTab.getByLabel('Close')).toHaveCount(0);
  });

  test('the button waits until the server has said whether it asks for a code', async ({ page }) => {
    // Until then the form cannot know its fields: a click would be refused as "code required".
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/login/captchaInfo', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await page.getByTestId('login-username').fill(ADMIN.username);
    await page.getByTestId('login-password').fill(ADMIN.password);
    await expect(page.getByTestId('login-submit')).toBeDisabled();
    release();
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a wrong password is refused and the user stays on the login page', async ({ page }) => {
    await uiLogin(page, 'not-the-password');
    // Announced to screen readers, and drawn without antd (not part of the login page).
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong username or password' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-submit')).toBeVisible();
  });

  test('a 5-character password is rejected before anything is sent', async ({ page }) => {
    const loginCalls: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes(`${API}/user/login`)) loginCalls.push(req.url());
    });
    await uiLogin(page, '12345');
    await expect(page.getByText(/the password can not be less than 6 digits/i)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(loginCalls).toEqual([]);
  });
});

test.describe('the login form without antd', () => {
  test('downloads at most 250 KB of compressed script and draws no antd component', async ({ page }) => {
    const { kb, files } = await scriptKb(page, '/login', () => expect(page.getByTestId('login-submit')).toBeVisible());
    expect(kb, `${files} scripts`).toBeLessThanOrEqual(250);
    await expect(page.locator('[class^="ant-"], [class*=" ant-"]')).toHaveCount(0);
  });

  test('names what is missing, focuses it, and clears each error as it is corrected', async ({ page }) => {
    await page.goto('/login');
    await page.getByTestId('login-submit').click();
    const username = page.getByTestId('login-username');
    await expect(username).toBeFocused();
    await expect(username).toHaveAttribute('aria-invalid', 'true');
    await expect(username).toHaveAccessibleDescription('Please enter the correct user name');
    await expect(page.getByTestId('login-password')).toHaveAccessibleDescription('Please enter the password');

    await username.fill(ADMIN.username);
    await expect(page.getByText('Please enter the correct user name')).toHaveCount(0);
    await expect(username).not.toHaveAttribute('aria-invalid');
    await expect(page.getByText('Please enter the password')).toBeVisible();
  });

  test('the password can be shown and hidden again', async ({ page }) => {
    await page.goto('/login');
    const password = page.getByTestId('login-password');
    await password.fill('secret-words');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
    await expect(password).toHaveValue('secret-words');
  });

  test('the language menu works from the keyboard', async ({ page }) => {
    await page.goto('/login');
    const button = page.getByTestId('lang-select');
    await button.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    // Opens on the language shown, marked as the checked one.
    await expect(page.getByRole('menuitemradio', { name: 'English' })).toBeFocused();
    await expect(page.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitemradio', { name: 'Español' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toHaveCount(0);
    await expect(button).toBeFocused();
    await expect(page.getByTestId('login-submit')).toHaveText('Iniciar sesión');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');

    // Escape closes it and gives the focus back; a click elsewhere closes it too.
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitemradio', { name: 'Español' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(button).toBeFocused();
    await button.click();
    await expect(menu).toBeVisible();
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await expect(menu).toHaveCount(0);
  });
});

test.describe('the signed-in shell', () => {
  test('downloads at most 500 KB of compressed script for the dashboard, opened signed in', async ({ page, session }) => {
    expect(session.token).toBeTruthy();
    const { kb, files } = await scriptKb(page, '/dashboard', async () => {
      await expect(shell(page).sidebar).toBeVisible();
      await expect(page.getByText(`Welcome back, ${ADMIN.username}`)).toBeVisible();
      await expect(page.locator('.ant-layout-content .ant-spin-spinning, .page-spin')).toHaveCount(0);
    });
    // Issue #31's budget. 485 KB of gzip -9 on 2026-11-27, after the user menu's dialogs and the
    // phone sidebar's drawer left the frame (they load when first opened); 436 KB as sent (brotli)
    // on 2026-11-28.
    expect(kb, `${files} scripts`).toBeLessThanOrEqual(500);
  });
});
