/**
 * The super administrator's site settings page (issue #39): contact details edited in the console
 * appear on the login page in the chosen language; a wrong field is shown beside it.
 */
import { LANGUAGE_COOKIE, MAIN_URL, callApi, expect, openFromSidebar, test } from './fixtures';
import { SITE_CONTACT } from './site-contact';

test.describe('site settings', () => {
  test.afterEach(async ({ request, session }) => {
    // Other specs read the contact details the servers start with: put them back.
    const { body } = await callApi<Record<string, unknown>>(request, 'GET', '/config');
    const { map: _map, ...stored } = body.data;
    const res = await callApi(request, 'POST', '/site/config', { token: session.token, data: { ...stored, ...SITE_CONTACT } });
    expect(res.status).toBe(200);
  });

  test('contact details edited here are on the login page in the language selected', async ({ page, browser, session: _s }) => {
    await page.goto('/dashboard');
    await openFromSidebar(page, 'System', 'Site settings');
    const form = page.getByTestId('site-form');
    await expect(form.getByTestId('site-contactTel')).toHaveValue(SITE_CONTACT.contactTel);

    // A wrong e-mail is named beside its field; nothing is sent.
    await form.getByTestId('site-email').fill('not an address');
    await form.getByTestId('site-save').click();
    await expect(form.getByText('Enter an e-mail address')).toBeVisible();
    await form.getByTestId('site-email').fill('desk@example.org');

    await form.getByTestId('site-contactTel').fill('+34 911 222 333');
    await page.getByTestId('site-language-tabs').getByRole('tab', { name: 'Español' }).click();
    await form.getByTestId('site-addressEs').fill('Calle Mayor 7, Madrid');
    await form.getByTestId('site-save').click();
    await expect(page.getByText('Site settings saved')).toBeVisible();

    // A visitor in Spanish sees them before signing in.
    const visitor = await browser.newContext();
    await visitor.addCookies([{ name: LANGUAGE_COOKIE, value: 'es', url: MAIN_URL, sameSite: 'Lax' }]);
    const login = await visitor.newPage();
    await login.goto(`${MAIN_URL}/login`);
    const footer = login.getByTestId('login-footer');
    await expect(footer.getByTestId('site-contact-address')).toHaveText('Calle Mayor 7, Madrid');
    await expect(footer.getByTestId('site-contact-tel')).toHaveAttribute('href', 'tel:+34911222333');
    await expect(footer.getByTestId('site-contact-email')).toHaveText('desk@example.org');
    await visitor.close();
  });
});
