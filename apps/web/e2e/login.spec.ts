import { ADMIN, API, expect, shell, test, uiLogin } from './fixtures';

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

  test('a wrong password is refused and the user stays on the login page', async ({ page }) => {
    await uiLogin(page, 'not-the-password');
    await expect(page.getByText('Wrong username or password')).toBeVisible();
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
