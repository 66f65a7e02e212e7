import { API, CAPTCHA_URL, expect, test, trackLiveChannel, uiLogin } from './fixtures';
import type { Page } from '@playwright/test';

/** Chromium reports every Content-Security-Policy refusal on the console. */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) seen.push(msg.text());
  });
  return seen;
}

test.describe('security headers', () => {
  test('the console runs under its Content-Security-Policy: captcha, login, pages, live channel', async ({ page }) => {
    const violations = cspViolations(page);
    const live = trackLiveChannel(page);
    const res = await page.goto(`${CAPTCHA_URL}/login`);
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res?.headers()['x-frame-options']).toBe('DENY');
    // The captcha is an SVG data: URL, allowed by img-src.
    const image = page.getByRole('img', { name: 'Verification code image' });
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    await page.goto('/login');
    await uiLogin(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/device/type');
    await expect(page.getByRole('table')).toBeVisible();
    await expect.poll(() => live.loggedIn).toBe(true);
    expect(violations).toEqual([]);
  });

  test('the API reference at /api/docs still renders', async ({ page }) => {
    const violations = cspViolations(page);
    await page.goto('/api/docs');
    await expect(page.getByText('IoT device management console API')).toBeVisible();
    await expect(page.getByText(`${API}/user/login`).first()).toBeVisible();
    expect(violations).toEqual([]);
  });
});
