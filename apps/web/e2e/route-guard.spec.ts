import { ADMIN, expect, shell, test, uiLogin } from './fixtures';

test.describe('route guard', () => {
  test('an anonymous visit goes to login with a redirect, and login returns there', async ({ page }) => {
    await page.goto('/sys/role');
    await expect(page).toHaveURL(/\/login\?redirect=(%2F|\/)sys(%2F|\/)role$/);
    await expect(page.getByTestId('login-form')).toBeVisible();

    await uiLogin(page);
    await expect(page).toHaveURL(/\/sys\/role$/);
    await expect(shell(page).tag('Roles')).toBeVisible();
    await expect(shell(page).tag('Roles')).toBeVisible();
    await expect(shell(page).userMenu).toContainText(ADMIN.username);
  });

  test('a signed-in user opening /login is sent home', async ({ page, session: _s }) => {
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Welcome back, ${ADMIN.username}`)).toBeVisible();
    await expect(page.getByTestId('login-form')).toHaveCount(0);
  });

  test('an unknown path shows the 404 page', async ({ page, session: _s }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText('Sorry, the page you visited does not exist.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back to dashboard' })).toBeVisible();
  });
});
