import type { APIRequestContext } from '@playwright/test';
import { ADMIN, API, LANGUAGE_COOKIE, MAIN_URL, callApi, expect, shell, test } from './fixtures';

test.describe('language switch', () => {
  test('Chinese renders Chinese menus, survives a reload, and English comes back', async ({
    page,
    context,
    session: _session,
  }) => {
    await page.goto('/dashboard');
    const { sidebar, menuItem, navbar, tag } = shell(page);
    await expect(page.getByText(`Welcome back, ${ADMIN.username}`)).toBeVisible();
    await expect(menuItem('System')).toBeVisible();

    await navbar.getByTestId('lang-select').click();
    await page.getByTestId('lang-zh').click();

    await expect(menuItem('系统管理')).toBeVisible();
    await expect(menuItem('设备管理')).toBeVisible();
    await expect(menuItem('System')).toHaveCount(0);
    await expect(page.getByText(`欢迎回来，${ADMIN.username}`)).toBeVisible();
    await expect(tag('首页')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh');
    const cookies = await context.cookies(MAIN_URL);
    expect(cookies.find((c) => c.name === LANGUAGE_COOKIE)?.value).toBe('zh');

    // The cookie keeps the choice across a reload (the browser itself asks for English).
    await page.reload();
    await expect(menuItem('系统管理')).toBeVisible();
    await expect(menuItem('设备管理')).toBeVisible();
    await expect(page.getByText(`欢迎回来，${ADMIN.username}`)).toBeVisible();
    await expect(tag('首页')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh');
    // Each language is named in its own script in the selector.
    await navbar.getByTestId('lang-select').click();
    await expect(page.getByTestId('lang-es')).toHaveText('Español');
    await expect(page.getByTestId('lang-ja')).toHaveText('日本語');
    await page.keyboard.press('Escape');

    // And back to English.
    await navbar.getByTestId('lang-select').click();
    await page.getByTestId('lang-en').click();
    await expect(menuItem('System')).toBeVisible();
    await expect(menuItem('Devices')).toBeVisible();
    await expect(page.getByText(`Welcome back, ${ADMIN.username}`)).toBeVisible();
    await expect(tag('Dashboard')).toBeVisible();
    await expect(sidebar.getByText('系统管理')).toHaveCount(0);
  });
});

test.describe('the stored language copy', () => {
  /** Operation-log rows of the language/profile saves so far (newest first). */
  async function preferenceRows(request: APIRequestContext, token: string) {
    const { body } = await callApi<{ total: number; items: { summary: string }[] }>(
      request,
      'GET',
      '/logs/list?action=user.preferences&limit=200',
      { token },
    );
    return body.data;
  }

  test('one switch writes one row; a login in the stored language writes none', async ({
    page,
    request,
    session,
  }) => {
    const saves: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith(`${API}/user/preferences`)) saves.push(r.postData() ?? '');
    });
    // The browser asks for English and has no language cookie: store English first.
    await callApi(request, 'POST', '/user/preferences', { token: session.token, data: { language: 'en' } });
    const start = (await preferenceRows(request, session.token)).total;

    await page.goto('/dashboard');
    const { menuItem, navbar } = shell(page);
    await expect(menuItem('System')).toBeVisible();
    expect(saves, 'no save when the language equals the stored one').toEqual([]);

    const saved = page.waitForResponse((r) => r.url().endsWith(`${API}/user/preferences`));
    await navbar.getByTestId('lang-select').click();
    await page.getByTestId('lang-ja').click();
    await expect(menuItem('システム管理')).toBeVisible();
    expect((await (await saved).json()).code).toBe(20000);
    // Choosing the language already shown sends nothing.
    await navbar.getByTestId('lang-select').click();
    await page.getByTestId('lang-ja').click();
    await page.reload();
    await expect(menuItem('システム管理')).toBeVisible();

    expect(saves).toEqual(['{"language":"ja"}']);
    const after = await preferenceRows(request, session.token);
    expect(after.total).toBe(start + 1);
    expect(after.items[0]!.summary).toBe('{"language":"ja"}');
  });

  test('a login whose browser language differs from the stored one saves it once', async ({
    page,
    request,
    session,
  }) => {
    await callApi(request, 'POST', '/user/preferences', { token: session.token, data: { language: 'es' } });
    const start = (await preferenceRows(request, session.token)).total;
    const saved = page.waitForResponse((r) => r.url().endsWith(`${API}/user/preferences`));
    await page.goto('/dashboard');
    await expect(shell(page).menuItem('System')).toBeVisible();
    expect((await saved).request().postData()).toBe('{"language":"en"}');
    await page.reload();
    await expect(shell(page).menuItem('System')).toBeVisible();
    const after = await preferenceRows(request, session.token);
    expect(after.total).toBe(start + 1);
    expect(after.items[0]!.summary).toBe('{"language":"en"}');
  });
});

test.describe('antd and dayjs follow the UI language (issue 33)', () => {
  test('the Chinese date picker shows Chinese weekdays and months', async ({ page, context, session: _s }) => {
    await context.addCookies([{ name: LANGUAGE_COOKIE, value: 'zh', url: MAIN_URL }]);
    await page.goto('/sys/logs');
    await page.locator('main .ant-picker-range input').first().click();
    const panel = page.locator('.ant-picker-dropdown .ant-picker-date-panel').first();
    await expect(panel).toBeVisible();
    const weekdays = (await panel.locator('thead th').allTextContents()).join(' ');
    expect(weekdays).toBe('一 二 三 四 五 六 日');
    await expect(panel.locator('.ant-picker-header-view')).toContainText('月');
    await expect(panel.locator('.ant-picker-header-view')).not.toContainText(/Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec/);
  });

  test('after a switch to Spanish the date picker speaks Spanish', async ({ page, session: _s }) => {
    await page.goto('/sys/logs');
    await shell(page).navbar.getByTestId('lang-select').click();
    await page.getByTestId('lang-es').click();
    await expect(shell(page).menuItem('Sistema')).toBeVisible();
    await page.locator('main .ant-picker-range input').first().click();
    const panel = page.locator('.ant-picker-dropdown .ant-picker-date-panel').first();
    // Monday first, in Spanish (English would start "Su" or "Mo").
    expect((await panel.locator('thead th').allTextContents()).join(' ')).toBe('Lun Mar Mié Jue Vie Sáb Dom');
  });

  test('no filter placeholder is cut off in Spanish', async ({ page, context, session: _s }) => {
    test.setTimeout(90_000);
    await context.addCookies([{ name: LANGUAGE_COOKIE, value: 'es', url: MAIN_URL }]);
    const pages = ['/device/list', '/project/index', '/project/alarminfo', '/sys/logs', '/sys/devlogs', '/sys/user', '/sys/role', '/sys/permission', '/sys/menu', '/card/index', '/card/orderManagement'];
    const cut: string[] = [];
    for (const url of pages) {
      await page.goto(url);
      await expect(page.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 15_000 });
      await expect(page.locator('main input').first()).toBeVisible();
      cut.push(
        ...(await page.evaluate((where) => {
          const canvas = document.createElement('canvas').getContext('2d')!;
          const found: string[] = [];
          for (const input of document.querySelectorAll<HTMLInputElement>('main input[placeholder]')) {
            if (!input.placeholder || input.offsetParent === null) continue;
            const s = getComputedStyle(input);
            canvas.font = `${s.fontSize} ${s.fontFamily}`;
            const room = input.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
            if (canvas.measureText(input.placeholder).width > room + 0.5) found.push(`${where}: "${input.placeholder}"`);
          }
          for (const span of document.querySelectorAll<HTMLElement>('main .ant-select-placeholder, main .ant-select-selection-placeholder')) {
            if (span.offsetParent !== null && span.scrollWidth > span.clientWidth + 0.5) found.push(`${where}: "${span.textContent}"`);
          }
          return found;
        }, url)),
      );
    }
    expect(cut, 'placeholders wider than their field').toEqual([]);
  });
});
