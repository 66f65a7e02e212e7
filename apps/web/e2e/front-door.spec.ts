/**
 * What a new operator meets first (issue: the front door): the console's own address, a reload
 * right after login, fresh data on Refresh and Search, the sidebar and breadcrumbs of hidden
 * pages, a sub-user's /401, and a phone-sized screen.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import {
  ADMIN,
  LANGUAGE_COOKIE,
  MAIN_URL,
  callApi,
  expect,
  setTokenCookie,
  shell,
  test,
  tokenCookie,
  uiLogin,
} from './fixtures';

const run = Date.now().toString(36);

async function addRole(request: APIRequestContext, token: string, name: string): Promise<number> {
  const { body } = await callApi<{ id: number }>(request, 'POST', '/role/add', {
    token,
    data: { name, identification: `FD_${name.replace(/\W/g, '_').toUpperCase()}` },
  });
  expect(body.code, body.message).toBe(20000);
  return body.data.id;
}

/** Whether `inner` lies horizontally within `outer` on screen. */
async function horizontallyWithin(inner: ReturnType<Page['locator']>, outer: ReturnType<Page['locator']>) {
  const [a, b] = await Promise.all([inner.boundingBox(), outer.boundingBox()]);
  return !!a && !!b && a.x >= b.x - 1 && a.x + a.width <= b.x + b.width + 1;
}

test.describe('the console address', () => {
  test('a visitor starts at / and lands on the dashboard after login', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await expect(page.getByTestId('login-form')).toBeVisible();
    await uiLogin(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Welcome back, ${ADMIN.username}`)).toBeVisible();

    // The sidebar logo links to / and leads back to the dashboard.
    await page.goto('/sys/role');
    await shell(page).sidebar.getByTestId('sidebar-logo').click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('reloading at once after login keeps the session', async ({ page, context }) => {
    await page.goto('/login');
    await uiLogin(page);
    // The login answer has set the cookie; reload while the console is still loading user info.
    await expect.poll(() => tokenCookie(context), { intervals: [20] }).toBeTruthy();
    await page.reload();
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Welcome back, ${ADMIN.username}`)).toBeVisible();
    expect(await tokenCookie(context)).toBeTruthy();
  });
});

test.describe('fresh data', () => {
  test('the tag Refresh and the Search button fetch again', async ({ page, session }) => {
    await page.goto('/sys/role');
    const table = page.getByTestId('table-role');
    await expect(table.getByText('SUPERADMIN', { exact: true })).toBeVisible();

    // A role created elsewhere (another tab, another administrator) shows after Refresh.
    await addRole(page.request, session.token, `Refresh ${run}`);
    const refresh = page.getByTestId('tag-menu-refresh').filter({ visible: true });
    await expect(async () => {
      if (!(await refresh.isVisible())) await shell(page).tag('Roles').click({ button: 'right' });
      await refresh.click({ timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
    await expect(table.getByText(`Refresh ${run}`)).toBeVisible();

    // And after Search with the same (empty) filters.
    await addRole(page.request, session.token, `Search ${run}`);
    await page.getByTestId('filter-search').click();
    await expect(table.getByText(`Search ${run}`)).toBeVisible();

    // Returning to the list after a change elsewhere shows it too.
    await page.goto('/dashboard');
    await addRole(page.request, session.token, `Back ${run}`);
    await shell(page).tag('Roles').click();
    await expect(table.getByText(`Back ${run}`)).toBeVisible();
  });
});

test.describe('sidebar and breadcrumbs', () => {
  test('the device list has its own menu entry; the built pages are offered', async ({ page, session: _s }) => {
    await page.goto('/dashboard');
    const { sidebar, menuItem } = shell(page);
    await menuItem('Devices').click();
    await sidebar.getByTestId('sidebar-item-/device/list').click();
    await expect(page).toHaveURL(/\/device\/list$/);
    await expect(page.getByTestId('device-list-page')).toBeVisible();
    await expect(shell(page).tag('Device list')).toBeVisible();

    // The old hidden address still works.
    await page.goto('/project/devicelist');
    await expect(page).toHaveURL(/\/device\/list$/);

    // Upgrades (issue 36) and SIM cards are built and offered: firmware versions, device upgrades
    // and external devices.
    await expect(sidebar.getByTestId('sidebar-item-/project')).toBeVisible();
    await expect(sidebar.getByTestId('sidebar-item-/upgrade')).toBeVisible();
    await expect(sidebar.getByTestId('sidebar-item-/card')).toBeVisible();
    await menuItem('Upgrades').click();
    await expect(sidebar.getByTestId('sidebar-item-/upgrade/version')).toBeVisible();
    await expect(sidebar.getByTestId('sidebar-item-/upgrade/device')).toBeVisible();
    await expect(sidebar.getByTestId('sidebar-item-/upgrade/external')).toBeVisible();
  });

  test('a hidden page sits under the page it is opened from', async ({ page, context, session: _s }) => {
    await context.addCookies([{ name: LANGUAGE_COOKIE, value: 'zh', url: MAIN_URL }]);
    await page.goto('/device/type');
    await expect(page.getByTestId('table-devicetypes')).toBeVisible();
    const bmu = page.getByTestId('type-row-BMU');
    // The built-in type's remark (an optional column) is in the UI language.
    await page.getByTestId('column-chooser').click();
    await page.getByTestId('column-toggle-remarks').click();
    await page.keyboard.press('Escape');
    await expect(bmu).toContainText('系统内置类型');
    // The choice is the user's, kept on the server: hide the column again for the specs after.
    await page.getByTestId('column-chooser').click();
    await page.getByTestId('column-toggle-remarks').click();
    await page.keyboard.press('Escape');
    await expect(bmu).not.toContainText('系统内置类型');
    await bmu.getByTestId(/^btn-params-/).click();
    await expect(page).toHaveURL(/\/device\/setparam\?id=\d+$/);
    await expect(page.getByTestId('breadcrumb')).toHaveText(/首页\s*\/\s*设备管理\s*\/\s*设备类型\s*\/\s*参数设置/);
    // The sidebar highlights the owner page.
    await expect(page.locator('.ant-menu-item-selected')).toContainText('设备类型');
  });

  test('long titles fit in every language', async ({ page, context, session: _s }) => {
    for (const lang of ['en', 'es', 'ja'] as const) {
      await context.addCookies([{ name: LANGUAGE_COOKIE, value: lang, url: MAIN_URL }]);
      await page.goto('/dashboard');
      const title = page.locator('.sidebar-title');
      await expect(title).toBeVisible();
      // Two lines at most, nothing clipped.
      const clipped = await title.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
      expect(clipped, `site title clipped in ${lang}`).toBe(false);

      // Group titles never run into their arrow.
      for (const group of ['/device', '/project', '/sys']) {
        const row = page.locator('.ant-menu-submenu-title', { has: page.getByTestId(`sidebar-item-${group}`) });
        const item = row.getByTestId(`sidebar-item-${group}`);
        const arrow = row.locator('.ant-menu-submenu-arrow');
        const [text, arrowBox] = await Promise.all([item.boundingBox(), arrow.boundingBox()]);
        expect(text && arrowBox && text.x + text.width <= arrowBox.x + 1, `${group} overlaps its arrow in ${lang}`).toBe(true);
      }
    }
  });

  test('the tags bar keeps the active tab in view', async ({ page, session: _s }) => {
    const pages = ['/sys/role', '/sys/menu', '/sys/permission', '/sys/user', '/sys/adminuser', '/sys/logs', '/sys/devlogs', '/user/agent', '/project/index', '/device/type', '/device/list'];
    await page.setViewportSize({ width: 1100, height: 800 });
    for (const path of pages) {
      await page.goto(path);
      await expect(page.getByTestId(`tag-${path}`)).toBeVisible();
    }
    const bar = page.getByTestId('tags-view');
    const overflowing = await bar.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(overflowing, 'enough tabs to overflow').toBe(true);
    expect(await horizontallyWithin(page.getByTestId('tag-/device/list'), bar)).toBe(true);
    // No scrollbar eats into the 34 px bar.
    const scrollbar = await bar.evaluate((el: HTMLElement) => {
      const style = getComputedStyle(el);
      return el.offsetHeight - el.clientHeight - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
    });
    expect(scrollbar).toBe(0);
    // Going back to the first tab scrolls it into view.
    await page.getByTestId('tag-/sys/role').click();
    await expect(page).toHaveURL(/\/sys\/role$/);
    await expect.poll(() => horizontallyWithin(page.getByTestId('tag-/sys/role'), bar)).toBe(true);
  });
});

test.describe('a sub-user', () => {
  test('opening a page without permission says 401; unknown pages say 404', async ({ page, context, request }) => {
    const admin = await callApi<{ token: string }>(request, 'POST', '/user/login', {
      data: { username: ADMIN.username, password: ADMIN.password, captcha: '', key: '' },
    });
    const token = admin.body.data.token;
    const roleId = await addRole(request, token, `Viewer ${run}`);
    const username = `fd-viewer-${run}`;
    const made = await callApi(request, 'POST', '/user/add', {
      token,
      data: { username, password: 'viewer-pass-1', type: 1, roleId, corporateName: 'Acme' },
    });
    expect(made.body.code, made.body.message).toBe(20000);
    const login = await callApi<{ token: string }>(request, 'POST', '/user/login', {
      data: { username, password: 'viewer-pass-1', captcha: '', key: '' },
    });
    await setTokenCookie(context, login.body.data.token);

    for (const path of ['/sys/role', '/device/list', '/device/setparam']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/401$/);
    }
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('device and menu tables show their names, with actions in a menu', async ({ page, session }) => {
    const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', {
      token: session.token,
    });
    const bmu = types.body.data.find((t) => t.code === 'BMU')!;
    const name = `Phone rack ${run}`;
    const added = await callApi(page.request, 'POST', '/device/add', {
      token: session.token,
      data: { name, sn: `FD-${run}`, typeId: bmu.id },
    });
    expect(added.body.code, added.body.message).toBe(20000);

    await page.goto(`/device/list`);
    const table = page.getByTestId('table-devices');
    const row = table.locator('tr.ant-table-row', { hasText: name });
    const nameCell = row.getByText(name);
    await expect(nameCell).toBeInViewport();
    // Actions: one compact menu, also in view.
    const more = row.locator('[data-testid^="row-actions-"]');
    await expect(more).toBeInViewport();
    await more.click();
    await expect(page.locator('.ant-dropdown').filter({ visible: true }).getByText('Edit', { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');

    await page.goto('/sys/menu');
    const menus = page.getByTestId('table-menu');
    await expect(menus.getByText('Devices', { exact: true }).first()).toBeInViewport();
    await expect(menus.locator('[data-testid^="row-actions-"]').first()).toBeInViewport();
  });
});
