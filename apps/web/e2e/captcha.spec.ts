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

    // The keyboard's way: Tab from the code's field reaches a named refresh button; Enter renews.
    const again = await image.getAttribute('src');
    await page.getByTestId('login-captcha').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'New verification code' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(image).not.toHaveAttribute('src', again ?? '');
    await expect(page.getByRole('button', { name: 'New verification code' })).toBeFocused();
  });
});
