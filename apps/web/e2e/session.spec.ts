import type { Page } from '@playwright/test';
import {
  MAIN_URL,
  callApi,
  expect,
  shell,
  test,
  tokenCookie,
  trackLiveChannel,
} from './fixtures';

/** The §8 box shown when the server says the session is gone (50008/50012/50014). */
function logoutConfirm(page: Page) {
  return page.getByRole('dialog').filter({ hasText: 'Confirm logout' });
}

async function expectLogoutConfirm(page: Page) {
  const dialog = logoutConfirm(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    'You have been logged out, you can cancel to stay on this page, or log in again',
  );
  await expect(dialog.getByRole('button', { name: 'Re-Login' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeVisible();
  return dialog;
}

test.describe('logout', () => {
  test('logging out through the user menu invalidates the token', async ({
    page,
    context,
    request,
    session,
  }) => {
    const live = trackLiveChannel(page);
    await page.goto('/sys/role');
    await expect(shell(page).tag('Roles')).toBeVisible();
    // As a real user would: the page is fully up, live channel included, before logging out.
    await expect.poll(() => live.loggedIn).toBe(true);
    const token = await tokenCookie(context);
    expect(token).toBe(session.token);

    await shell(page).userMenu.click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();

    await expect(page).toHaveURL(/\/login\?redirect=(%2F|\/)sys(%2F|\/)role$/);
    await expect(page.getByTestId('login-form')).toBeVisible();
    await expect.poll(() => tokenCookie(context)).toBeUndefined();
    // The server's SESSION_ENDED push for this very logout must not open the 'Confirm logout' box.
    // Once the live socket is closed, whatever the server pushed on it has reached the page; two
    // frames later a box it opened would be on screen.
    await expect.poll(() => live.open).toBe(0);
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await expect(logoutConfirm(page)).toHaveCount(0);

    // The old token is dead on the server.
    const { status, body } = await callApi(request, 'GET', '/user/info', { token: token! });
    expect(status).toBe(401);
    expect(body.code).toBe(50012);
  });
});

test.describe('session ended elsewhere (§8 Confirm logout)', () => {
  test('the next call in the app answers 50012: Re-Login goes to the login page', async ({
    page,
    context,
    request,
    session,
  }) => {
    // Keep the live channel silent so that only the HTTP answer can raise the box.
    await page.routeWebSocket(/\/api\/v1\/ws$/, () => {});
    await page.goto('/sys/role');
    await expect(shell(page).tag('Roles')).toBeVisible();
    // The page's own data has arrived: no request of it is still in flight when the session ends.
    await expect(page.getByText('SUPERADMIN', { exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');

    // Another tab logs out with the same token.
    const { body } = await callApi(request, 'POST', '/user/logout', { token: session.token });
    expect(body.code).toBe(20000);
    await expect(logoutConfirm(page)).toHaveCount(0);

    // Navigate within the app: the dashboard asks the server for data.
    await shell(page).tag('Dashboard').click();
    const dialog = await expectLogoutConfirm(page);
    await dialog.getByRole('button', { name: 'Re-Login' }).click();

    await expect(page).toHaveURL(/\/login\?redirect=(%2F|\/)dashboard$/);
    await expect(page.getByTestId('login-form')).toBeVisible();
    await expect(logoutConfirm(page)).toHaveCount(0);
    expect(await tokenCookie(context)).toBeUndefined();
  });

  test('the live channel reports it at once: Cancel stays, Re-Login goes to login', async ({
    page,
    request,
    session,
  }) => {
    const live = trackLiveChannel(page);
    await page.goto('/sys/role');
    await expect(shell(page).tag('Roles')).toBeVisible();
    await expect.poll(() => live.loggedIn).toBe(true);
    // The page's own data has arrived: a request of it still in flight when the session ends would
    // answer 50012 after Cancel and rightly raise the box again (CI, stop 21).
    await expect(page.getByText('SUPERADMIN', { exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');

    await callApi(request, 'POST', '/user/logout', { token: session.token });

    // No navigation needed: the server pushes the end of the session.
    const dialog = await expectLogoutConfirm(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(`${MAIN_URL}/sys/role`);
    await expect(shell(page).tag('Roles')).toBeVisible();

    // Cancel only closed the box; the next call to the server raises it again.
    await shell(page).tag('Dashboard').click();
    const again = await expectLogoutConfirm(page);
    await again.getByRole('button', { name: 'Re-Login' }).click();
    await expect(page).toHaveURL(/\/login\?redirect=(%2F|\/)dashboard$/);
    await expect(page.getByTestId('login-form')).toBeVisible();
  });
});
