/**
 * What a new operator trips over in the console: a new user's language defaulting to the
 * console's, and the password-change toast in the UI language.
 */
import type { BrowserContext } from '@playwright/test';
import { LANGUAGE_COOKIE, MAIN_URL, callApi, createCompanyUser, expect, pickOption, setTokenCookie, shell, test } from './fixtures';

const run = Date.now().toString(36);

async function setLanguage(context: BrowserContext, lang: string) {
  await context.addCookies([{ name: LANGUAGE_COOKIE, value: lang, url: MAIN_URL, sameSite: 'Lax' }]);
}

test('a new user’s language defaults to the console’s language', async ({ page, context, session: _s }) => {
  await setLanguage(context, 'zh');
  await page.goto('/user/agent');
  await expect(page.getByTestId('table-agent')).toBeVisible();
  await page.getByTestId('btn-add').click();
  await expect(page.getByTestId('field-language')).toContainText('中文');

  await setLanguage(context, 'es');
  await page.reload();
  await expect(page.getByTestId('table-agent')).toBeVisible();
  await page.getByTestId('btn-add').click();
  await expect(page.getByTestId('field-language')).toContainText('Español');
  // The administrator may still choose another one.
  await pickOption(page, page.getByTestId('field-language'), 'English');
});

test('the password-change toast speaks the console’s language', async ({ page, context, request }) => {
  const username = `e2e-pw-${run}`;
  const token = await createCompanyUser(request, username, 'old-pass-123');
  await setTokenCookie(context, token);
  await setLanguage(context, 'zh');
  await page.goto('/dashboard');
  await shell(page).userMenu.click();
  await page.getByTestId('menu-change-password').click();
  await page.getByTestId('change-password-old').fill('old-pass-123');
  await page.getByTestId('change-password-new').fill('new-pass-456');
  await page.getByTestId('change-password-confirm').fill('new-pass-456');
  await page.getByTestId('change-password-submit').click();
  const toast = page.locator('.ant-message-notice');
  await expect(toast.filter({ hasText: '密码修改成功' })).toBeVisible();
  await expect(toast.filter({ hasText: /password changed/i })).toHaveCount(0);
  // The new password works.
  const relogin = await callApi(request, 'POST', '/user/login', { data: { username, password: 'new-pass-456', captcha: '', key: '' } });
  expect(relogin.body.code).toBe(20000);
});
