import { API, CAPTCHA_URL, expect, test, uiLogin } from './fixtures';

test.describe('login with the captcha on', () => {
  test('requires the captcha and renews the image on click', async ({ page }) => {
    const loginCalls: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes(`${API}/user/login`)) loginCalls.push(req.url());
    });
    await page.goto(`${CAPTCHA_URL}/login`);

    const image = page.getByRole('img', { name: 'Verification code image' });
    await expect(image).toBeVisible();
    await expect(page.getByTestId('login-captcha')).toBeVisible();

    // Username and password but no captcha: the form says so and nothing logs in.
    await uiLogin(page);
    await expect(page.getByText('Please enter the verification code')).toBeVisible();
    await expect(page).toHaveURL(`${CAPTCHA_URL}/login`);
    expect(loginCalls).toEqual([]);

    // A click loads a new challenge.
    const before = await image.getAttribute('src');
    expect(before).toMatch(/^data:image\/svg\+xml/);
    await image.click();
    await expect(image).not.toHaveAttribute('src', before ?? '');
    await expect(image).toHaveAttribute('src', /^data:image\/svg\+xml/);
  });
});
