/**
 * Access control end to end, all through the console's own screens: the administrator creates a
 * role with a subset of permissions and a sub-user holding it; the sub-user signs in and sees
 * only the permitted menus and buttons; three emails are linked and the fourth is refused.
 * Two logins in all (one API, one form) because login rate limits and lockout are on.
 */
import type { Page } from '@playwright/test';
import { expect, openFromSidebar, pickOption, setTokenCookie, shell, test, tokenCookie } from './fixtures';

const run = Date.now().toString(36);
const ROLE = { name: `E2E operators ${run}`, identification: `E2E_OPS_${run.toUpperCase()}` };
const OPERATOR = { username: `e2e-op-${run}`, password: 'operator-pass-1' };
const FIELD_USER = `e2e-field-${run}`;
/** The subset the role gets: the own-users screen without delete, and the operation log. */
const GRANTED = ['agent:list', 'agent:add', 'agent:edit', 'log:operation'];

/** Set by the first test, used by the next ones (serial). */
let operatorToken: string | undefined;

/** A validation message under a form field. */
function fieldError(page: Page, text: string) {
  return page.locator('.ant-form-item-explain-error', { hasText: text });
}

/** A success toast (several may be on screen at once). */
function toast(page: Page, text: string) {
  return page.locator('.ant-message-notice', { hasText: text }).first();
}

/** The table row of a record by a text it shows; its id is the row key. */
async function rowId(page: Page, table: string, text: string): Promise<string> {
  const row = page.getByTestId(table).locator('tr[data-row-key]', { hasText: text });
  await expect(row).toHaveCount(1);
  return (await row.getAttribute('data-row-key'))!;
}

test.describe.serial('access control', () => {
  test('the administrator creates a role with a subset of permissions and a sub-user with it', async ({
    page,
    session: _s,
  }) => {
    // Role, through the role screen.
    await page.goto('/sys/role');
    await expect(page.getByTestId('table-role')).toBeVisible();
    await page.getByTestId('btn-add').click();
    await page.getByTestId('field-name').fill(ROLE.name);
    await page.getByTestId('field-identification').fill(ROLE.identification);
    await page.getByTestId('modal-ok').click();
    await expect(toast(page, 'Created successfully')).toBeVisible();
    const roleId = await rowId(page, 'table-role', ROLE.identification);

    // Its permissions: a few leaves of the menu → permission tree.
    await page.getByTestId(`row-permissions-${roleId}`).click();
    const tree = page.getByTestId('perm-tree');
    await expect(tree).toBeVisible();
    for (const code of GRANTED) {
      await tree.getByTestId(`perm-node-${code}`).click();
      await expect(tree.locator('.ant-tree-treenode', { has: page.getByTestId(`perm-node-${code}`) })).toHaveClass(
        /ant-tree-treenode-checkbox-checked/,
      );
    }
    await expect(tree.locator('.ant-tree-treenode-checkbox-checked')).toHaveCount(
      // the four leaves, "User management" (all its leaves but delete: half) and "Operation logs"
      GRANTED.length + 1,
    );
    await page.getByTestId('perm-save').click();
    await expect(toast(page, 'Permissions saved')).toBeVisible();
    await expect(page.getByTestId('perm-drawer')).toBeHidden();

    // Sub-user, through the user screen; the form asks for what §5 requires first, but not for
    // company details: an agent's sub-users are often people (issue 33).
    await page.goto('/user/agent');
    await expect(page.getByTestId('table-agent')).toBeVisible();
    await page.getByTestId('btn-add').click();
    await page.getByTestId('modal-ok').click();
    await expect(fieldError(page, 'Please enter the user name')).toBeVisible();
    await expect(fieldError(page, 'Please select role')).toBeVisible();
    await expect(fieldError(page, 'Please enter the company name')).toHaveCount(0);
    await page.getByTestId('field-username').fill(OPERATOR.username);
    await page.getByTestId('field-password').fill('12345');
    await expect(fieldError(page, 'The password can not be less than 6 digits')).toBeVisible();
    await page.getByTestId('field-password').fill(OPERATOR.password);
    await pickOption(page, page.getByTestId('field-roleId'), ROLE.name);
    await page.getByTestId('field-corporateName').fill('Acme Energy');
    await page.getByTestId('field-corporateAddress').fill('1 Harbour Road');
    await page.getByTestId('field-contactNumber').fill('+34 600 000 000');
    await page.getByTestId('modal-ok').click();
    await expect(toast(page, 'Created successfully')).toBeVisible();
    const row = page.getByTestId('table-agent').locator('tr[data-row-key]', { hasText: OPERATOR.username });
    await expect(row).toContainText(ROLE.name);
    await expect(row).toContainText('admin');
  });

  test('the sub-user sees only the permitted menus and buttons', async ({ page, context }) => {
    await page.goto('/login');
    await page.getByTestId('login-username').fill(OPERATOR.username);
    await page.getByTestId('login-password').fill(OPERATOR.password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    operatorToken = await tokenCookie(context);

    // Sidebar: the dashboard and the two groups that hold a granted permission, nothing else.
    const { sidebar } = shell(page);
    const entries = sidebar.locator('[data-testid^="sidebar-item-"]');
    await expect(entries).toHaveText(['Dashboard', 'Users', 'System']);
    await openFromSidebar(page, 'Users', 'User management');
    await expect(page).toHaveURL(/\/user\/agent$/);
    await shell(page).menuItem('System').click();
    await expect(sidebar.getByTestId('sidebar-item-/sys/logs')).toBeVisible();
    await expect(sidebar.locator('[data-testid^="sidebar-item-/sys/"]')).toHaveCount(1);
    await expect(sidebar.locator('[data-testid^="sidebar-item-/user/"]')).toHaveCount(1);

    // agent:add and agent:edit, no agent:delete: a new sub-user shows edit but never delete.
    await expect(page.getByTestId('table-agent')).toBeVisible();
    await page.getByTestId('btn-add').click();
    await page.getByTestId('field-username').fill(FIELD_USER);
    await page.getByTestId('field-password').fill('field-pass-1');
    await pickOption(page, page.getByTestId('field-roleId'), ROLE.name);
    await page.getByTestId('field-corporateName').fill('Acme Energy');
    await page.getByTestId('field-corporateAddress').fill('2 Harbour Road');
    await page.getByTestId('field-contactNumber').fill('600 000 001');
    await page.getByTestId('modal-ok').click();
    await expect(toast(page, 'Created successfully')).toBeVisible();
    const fieldUserId = await rowId(page, 'table-agent', FIELD_USER);
    await expect(page.getByTestId(`row-edit-${fieldUserId}`)).toBeVisible();
    await expect(page.getByTestId(`row-password-${fieldUserId}`)).toBeVisible();
    await expect(page.getByTestId(`row-emails-${fieldUserId}`)).toBeVisible();
    await expect(page.locator('[data-testid^="row-delete-"]')).toHaveCount(0);

    // The operation log opens; screens without a granted code do not exist for this user.
    await sidebar.getByTestId('sidebar-item-/sys/logs').click();
    await expect(page.getByTestId('table-logs')).toBeVisible();
    await expect(page.getByTestId('btn-add')).toHaveCount(0);
    for (const path of ['/sys/role', '/sys/menu', '/sys/adminuser']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/401$/);
    }
  });

  test('three emails are linked and the fourth is refused', async ({ page, context }) => {
    expect(operatorToken, 'the previous test signed the sub-user in').toBeTruthy();
    await setTokenCookie(context, operatorToken!);
    await page.goto('/profile');
    const manager = page.getByTestId('email-manager');
    await expect(manager).toBeVisible();
    await expect(manager).toContainText('Linked emails: 0 of at most 3.');

    for (const [i, email] of ['one', 'two', 'three'].map((n) => `${n}.${run}@example.com`).entries()) {
      await page.getByTestId('email-input').fill(email);
      await page.getByTestId('email-add').click();
      await expect(page.getByTestId('email-list')).toContainText(email);
      await expect(manager).toContainText(`Linked emails: ${i + 1} of at most 3.`);
    }

    // A malformed address never leaves the form.
    await page.getByTestId('email-input').fill('not-an-email');
    await page.getByTestId('email-add').click();
    await expect(fieldError(page, 'Please enter a valid email address')).toBeVisible();

    // The fourth is sent and the server refuses it.
    const refused = page.waitForResponse((res) => res.url().includes('/api/v1/user/addemail'));
    await page.getByTestId('email-input').fill(`four.${run}@example.com`);
    await page.getByTestId('email-add').click();
    expect((await (await refused).json()).code).toBe(40900);
    await expect(page.getByTestId('email-error')).toContainText('A user can have at most 3 emails');
    await expect(page.getByTestId('email-list').locator('tr[data-row-key]')).toHaveCount(3);
    await expect(page.getByTestId('email-list')).not.toContainText(`four.${run}@example.com`);
  });
});
