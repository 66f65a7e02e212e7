import { expect, openFromSidebar, shell, test } from './fixtures';

test.describe('tags view', () => {
  test('Close others keeps the pinned dashboard and the chosen tab', async ({ page, session: _s }) => {
    await page.goto('/dashboard');
    const { tags, tag } = shell(page);
    await expect(tags).toHaveText(['Dashboard']);

    await openFromSidebar(page, 'System', 'Roles');
    await expect(page).toHaveURL(/\/sys\/role$/);
    await expect(shell(page).tag('Roles')).toBeVisible();
    // The URL changes at once; the tab appears when the (lazy) page has rendered. A view left
    // before it ever rendered gets no tab, so wait for each one like a user would.
    await openFromSidebar(page, 'System', 'Menus');
    await expect(page).toHaveURL(/\/sys\/menu$/);
    await expect(shell(page).tag('Menus')).toBeVisible();
    await openFromSidebar(page, 'System', 'Permissions');
    await expect(page).toHaveURL(/\/sys\/permission$/);
    await expect(tags).toHaveText(['Dashboard', 'Roles', 'Menus', 'Permissions']);

    // Let the page settle first: a context menu closes when the page scrolls under it.
    await expect(page.getByTestId('table-permission').locator('tr.ant-table-row').first()).toBeVisible();

    // Right-click the Menus tab (not the current one) and keep only it.
    const closeOthers = page.getByRole('menuitem', { name: 'Close others' }).filter({ visible: true });
    await expect(async () => {
      if (!(await closeOthers.isVisible())) await tag('Menus').click({ button: 'right' });
      await closeOthers.click({ timeout: 3_000 });
    }).toPass({ timeout: 20_000 });

    await expect(tags).toHaveText(['Dashboard', 'Menus']);
    await expect(page).toHaveURL(/\/sys\/menu$/);
    await expect(tag('Menus')).toHaveAttribute('data-active', 'true');
  });
});

test.describe('settings panel', () => {
  test('opens on demand and switching the tags view off hides the tabs', async ({ page, session: _s }) => {
    await page.goto('/dashboard');
    await expect(shell(page).tags).toHaveText(['Dashboard']);
    // The panel's code is loaded when it is first opened (not with the login page).
    await page.getByTestId('settings-gear').click();
    const drawer = page.getByTestId('settings-drawer');
    await expect(drawer).toBeVisible();
    await drawer.getByTestId('setting-tags-view').click();
    await expect(shell(page).tagsView).toBeHidden();
    await drawer.getByTestId('setting-tags-view').click();
    await expect(shell(page).tagsView).toBeVisible();
  });

  test('the UI size applies to every control and survives a reload (a cookie, §9)', async ({ page, context, session: _s }) => {
    await page.goto('/dashboard');
    await page.getByTestId('settings-gear').click();
    const drawer = page.getByTestId('settings-drawer');
    const reset = drawer.getByTestId('settings-reset');
    await expect(reset).not.toHaveClass(/ant-btn-lg/);
    await drawer.getByTestId('setting-size').getByText('Large').click();
    await expect(reset).toHaveClass(/ant-btn-lg/);
    expect((await context.cookies()).find((c) => c.name === 'size')?.value).toBe('large');

    await page.reload();
    await page.getByTestId('settings-gear').click();
    await expect(drawer.getByTestId('settings-reset')).toHaveClass(/ant-btn-lg/);
    await expect(drawer.getByTestId('setting-size').locator('.ant-segmented-item-selected')).toHaveText('Large');
    // Small, then back to the default with the panel's reset.
    await drawer.getByTestId('setting-size').getByText('Small').click();
    await expect(drawer.getByTestId('settings-reset')).toHaveClass(/ant-btn-sm/);
    await drawer.getByTestId('settings-reset').click();
    await expect(drawer.getByTestId('setting-size').locator('.ant-segmented-item-selected')).toHaveText('Medium');
    await expect(drawer.getByTestId('settings-reset')).not.toHaveClass(/ant-btn-(sm|lg)/);
    expect((await context.cookies()).find((c) => c.name === 'size')?.value).toBe('middle');
  });
});
