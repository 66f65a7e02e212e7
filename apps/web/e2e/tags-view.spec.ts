import { expect, openFromSidebar, shell, test } from './fixtures';

test.describe('tags view', () => {
  test('Close others keeps the pinned dashboard and the chosen tab', async ({ page, session: _s }) => {
    await page.goto('/dashboard');
    const { tags, tag } = shell(page);
    await expect(tags).toHaveText(['Dashboard']);

    await openFromSidebar(page, 'System', 'Roles');
    await expect(page).toHaveURL(/\/sys\/role$/);
    await expect(shell(page).tag('Roles')).toBeVisible();
    await openFromSidebar(page, 'System', 'Menus');
    await expect(page).toHaveURL(/\/sys\/menu$/);
    await openFromSidebar(page, 'System', 'Permissions');
    await expect(page).toHaveURL(/\/sys\/permission$/);
    await expect(tags).toHaveText(['Dashboard', 'Roles', 'Menus', 'Permissions']);

    // Right-click the Menus tab (not the current one) and keep only it.
    await tag('Menus').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Close others' }).click();

    await expect(tags).toHaveText(['Dashboard', 'Menus']);
    await expect(page).toHaveURL(/\/sys\/menu$/);
    await expect(tag('Menus')).toHaveAttribute('data-active', 'true');
  });
});
