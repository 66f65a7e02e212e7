import { ADMIN, LANGUAGE_COOKIE, MAIN_URL, expect, shell, test } from './fixtures';

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
