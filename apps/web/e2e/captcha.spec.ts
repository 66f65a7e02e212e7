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

  test('the listen button plays the same challenge spoken, reached by keyboard, renewed with the image', async ({ page }) => {
    const infos: string[] = [];
    page.on('response', async (res) => {
      if (res.url().includes(`${API}/login/captchaInfo`)) infos.push((await res.json()).data.key);
    });
    const audio = page.waitForResponse((res) => res.url().includes(`${API}/login/captchaAudio?`));
    await page.goto(`${CAPTCHA_URL}/login`);
    const image = page.getByRole('img', { name: 'Verification code image' });
    await expect(image).toBeVisible();
    await expect.poll(() => infos.length).toBeGreaterThan(0);

    // Tab from the code's field: the refresh button, then the named listen button; Enter plays.
    await page.getByTestId('login-captcha').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const listen = page.getByRole('button', { name: 'Listen to the verification code' });
    await expect(listen).toBeFocused();
    await page.keyboard.press('Enter');
    const first = await audio;
    expect(first.status()).toBe(200);
    expect(first.headers()['content-type']).toBe('audio/wav');
    expect(new URL(first.url()).searchParams.get('key')).toBe(infos.at(-1));
    expect((await first.body()).subarray(0, 4).toString('ascii')).toBe('RIFF');
    // The answer is nowhere in the page: no text track, no caption.
    await expect(page.locator('track, audio[src], video')).toHaveCount(0);

    // A new challenge: listening now asks for the new one's sound.
    await page.getByRole('button', { name: 'New verification code' }).click();
    await expect.poll(() => infos.length).toBeGreaterThan(1);
    const second = page.waitForResponse((res) => res.url().includes(`${API}/login/captchaAudio?`));
    await listen.click();
    expect(new URL((await second).url()).searchParams.get('key')).toBe(infos.at(-1));
  });
});
