/**
 * The site operator's contact details (site configuration, §1) where a user looks for them: the
 * login page footer in the language selected, and the user information of a company account.
 */
import type { BrowserContext } from '@playwright/test';
import { LANGUAGE_COOKIE, MAIN_URL, createCompanyUser, expect, setTokenCookie, shell, test } from './fixtures';
import { SITE_CONTACT } from './site-contact';

const run = Date.now().toString(36);

async function setLanguage(context: BrowserContext, lang: string) {
  await context.addCookies([{ name: LANGUAGE_COOKIE, value: lang, url: MAIN_URL, sameSite: 'Lax' }]);
}

test.describe('the site operator’s contact details', () => {
  test('are on the login page in the language selected, with tel and mailto links', async ({ page, context }) => {
    await setLanguage(context, 'en');
    await page.goto('/login');
    const footer = page.getByTestId('login-footer');
    await expect(footer.getByTestId('site-contact-address')).toHaveText(SITE_CONTACT.addressEn);
    await expect(footer).toContainText('Tel:');
    await expect(footer).toContainText('Address:');
    const tel = footer.getByTestId('site-contact-tel');
    await expect(tel).toHaveText(SITE_CONTACT.contactTel);
    await expect(tel).toHaveAttribute('href', 'tel:+862155550100');
    const mail = footer.getByTestId('site-contact-email');
    await expect(mail).toHaveText(SITE_CONTACT.email);
    await expect(mail).toHaveAttribute('href', `mailto:${SITE_CONTACT.email}`);
    // Beside the copyright.
    await expect(footer).toContainText('IoT Console. All rights reserved.');

    // Switching the language on the page switches the address and the labels.
    await page.getByTestId('lang-select').click();
    await page.getByTestId('lang-zh').click();
    await expect(footer.getByTestId('site-contact-address')).toHaveText(SITE_CONTACT.address);
    await expect(footer).toContainText('电话:');
    await expect(footer).toContainText('邮箱:');
    await page.getByTestId('lang-select').click();
    await page.getByTestId('lang-es').click();
    await expect(footer.getByTestId('site-contact-address')).toHaveText(SITE_CONTACT.addressEs);
    await expect(footer).toContainText('Dirección:');
  });

  test('are in the user information of a company account', async ({ page, context, request }) => {
    const token = await createCompanyUser(request, `e2e-info-${run}`, 'company-pass-1');
    await setTokenCookie(context, token);
    await setLanguage(context, 'ja');
    await page.goto('/dashboard');
    await shell(page).userMenu.click();
    await page.getByTestId('menu-user-info').click();
    const dialog = page.getByTestId('user-info-modal');
    const contact = dialog.getByTestId('site-contact');
    await expect(contact).toBeVisible();
    await expect(contact).toContainText('お問い合わせ');
    await expect(contact.getByTestId('site-contact-address')).toHaveText(SITE_CONTACT.addressJa);
    await expect(contact.getByTestId('site-contact-tel')).toHaveAttribute('href', 'tel:+862155550100');
    await expect(contact.getByTestId('site-contact-email')).toHaveAttribute('href', `mailto:${SITE_CONTACT.email}`);
  });
});
