/**
 * A sub-user whose role holds project codes but no user-management code works with projects
 * without the console making a call it may not make: the owner and project-user pickers offer the
 * users it knows and never search users (GET /user/options answers such a user 403).
 */
import type { APIRequestContext } from '@playwright/test';
import { API, callApi, createCompanyUser, expect, setTokenCookie, test } from './fixtures';

const run = Date.now().toString(36);
const OPERATOR = { username: `e2e-proj-${run}`, password: 'operator-pass-1' };
const PROJECT = `E2E sub-user project ${run}`;
/** Project work without any of admin/user/agent list/add/edit. */
const GRANTED = ['project:list', 'project:add', 'project:edit', 'project:users', 'project:detail'];

async function ok<T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, token: string, data?: unknown) {
  const { body } = await callApi<T>(request, method, path, { token, data });
  expect(body.code, `${path}: ${body.message}`).toBe(20000);
  return body.data;
}

test.describe.configure({ mode: 'serial' });

test('a sub-user without user permissions uses the project screens without a refused call', async ({
  page,
  context,
  request,
  session,
}) => {
  // The role and the sub-user, made by the administrator through the API.
  const { id: roleId } = await ok<{ id: number }>(request, 'POST', '/role/add', session.token, {
    name: `E2E projects ${run}`,
    identification: `E2E_PROJ_${run.toUpperCase()}`,
  });
  const all = await ok<{ items: { id: number; identification: string }[] }>(request, 'GET', '/permission/getlist?limit=200', session.token);
  const permissionIds = all.items.filter((p) => GRANTED.includes(p.identification)).map((p) => p.id);
  expect(permissionIds).toHaveLength(GRANTED.length);
  await ok(request, 'POST', '/role/setpermission', session.token, { id: roleId, permissionIds });
  await ok(request, 'POST', '/user/add', session.token, { ...OPERATOR, type: 1, roleId, corporateName: 'Acme Energy' });
  const { token } = await ok<{ token: string }>(request, 'POST', '/user/login', '', { ...OPERATOR, captcha: '', key: '' });
  await context.clearCookies();
  await setTokenCookie(context, token);

  const refused: string[] = [];
  const userSearches: string[] = [];
  page.on('response', (res) => {
    if (res.status() === 403) refused.push(res.url());
    if (res.url().includes(`${API}/user/options`)) userSearches.push(res.url());
  });

  // The list (its add/edit form is already mounted, owner picker included).
  await page.goto('/project/index');
  await expect(page.getByTestId('table-projects')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(refused, 'responses refused with 403 on the project list').toEqual([]);

  // The add form with its owner picker: the sub-user itself is the owner.
  await page.getByTestId('btn-add').click();
  const owner = page.getByTestId('field-ownerId');
  await expect(owner).toContainText(OPERATOR.username);
  await owner.click();
  await expect(page.locator('.ant-select-dropdown .ant-select-item-option').filter({ hasText: OPERATOR.username })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('field-name').fill(PROJECT);
  await page.getByTestId('project-submit').click();
  const row = page.getByTestId('table-projects').locator('tr[data-row-key]', { hasText: PROJECT });
  await expect(row).toContainText(OPERATOR.username);

  // The project's users page: the picker opens without a search.
  const projectId = await row.getAttribute('data-row-key');
  await page.getByTestId(`row-users-${projectId}`).click();
  await expect(page.getByTestId('project-users')).toBeVisible();
  await page.getByTestId('project-users-select').click();
  await expect(page.getByText('Searching users needs a user-management permission')).toBeVisible();

  // Back on the list (a second visit), then a moment for any late request.
  await page.goto('/project/index');
  await expect(row).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(refused, 'responses refused with 403').toEqual([]);
  expect(userSearches, 'user searches').toEqual([]);

  // The server still refuses it, so the console was right not to ask.
  const direct = await callApi(request, 'GET', '/user/options?q=a', { token });
  expect(direct.status).toBe(403);
});

test('an administrator still searches users in the owner picker', async ({ page, session: _session }) => {
  const searched = page.waitForResponse((res) => res.url().includes(`${API}/user/options`) && res.url().includes('q=e2e-proj'));
  await page.goto('/project/index');
  await expect(page.getByTestId('table-projects')).toBeVisible();
  await page.getByTestId('btn-add').click();
  const owner = page.getByTestId('field-ownerId');
  await owner.click();
  await owner.locator('input').fill(OPERATOR.username.slice(0, 9));
  expect((await searched).status()).toBe(200);
  await expect(page.locator('.ant-select-dropdown .ant-select-item-option').filter({ hasText: OPERATOR.username })).toBeVisible();
});

test('a sub-user on a shared project sees no action the server would refuse; the owner still does', async ({
  page,
  context,
  request,
  session,
}) => {
  test.setTimeout(90_000);
  // The administrator's project with a device, shared with a battery-management sub-user (it
  // holds device:edit and device:command, but the project is not its line's).
  const project = (await ok<{ id: number }>(request, 'POST', '/project/addproject', session.token, { name: `Shared ${run}` })).id;
  const types = await ok<{ id: number; code: string }[]>(request, 'GET', '/devicetype/typeoptionslist', session.token);
  const device = (
    await ok<{ id: number }>(request, 'POST', '/device/add', session.token, {
      name: `Shared pack ${run}`,
      sn: `SHARED-${run}`,
      typeId: types.find((x) => x.code === 'BMU')!.id,
      projectId: project,
    })
  ).id;
  const sub = `e2e-shared-${run}`;
  const token = await createCompanyUser(request, sub, 'shared-pass-1');
  const users = await ok<{ items: { id: number; username: string }[] }>(request, 'GET', `/user/list?username=${sub}`, session.token);
  await ok(request, 'POST', '/project/setuserproject', session.token, { id: project, userIds: [users.items.find((u) => u.username === sub)!.id] });

  await context.clearCookies();
  await setTokenCookie(context, token);
  const refused: string[] = [];
  page.on('response', (res) => {
    if (res.url().includes(API) && (res.status() === 403 || res.status() === 404)) refused.push(`${res.status()} ${res.url()}`);
  });

  // The device list: the row without Edit, New secret or Delete, and not selectable for bulk moves.
  await page.goto('/device/list');
  const row = page.getByTestId('table-devices').locator(`tr[data-row-key="${device}"]`);
  await expect(row).toBeVisible();
  for (const action of ['edit', 'secret', 'delete']) await expect(page.getByTestId(`row-${action}-${device}`)).toHaveCount(0);
  await expect(row.getByRole('checkbox')).toBeDisabled();
  await expect(page.getByTestId('btn-bulk-move')).toBeDisabled();

  // Its details: no Edit; Send to device disabled, saying why.
  await page.getByTestId(`device-link-${device}`).click();
  await expect(page.getByTestId('device-title')).toHaveText(`Shared pack ${run}`);
  await expect(page.getByTestId('device-edit')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Set parameters' }).click();
  await expect(page.getByTestId('set-params-send')).toBeDisabled();
  await expect(page.getByText('You may not send commands to this device')).toBeVisible();

  // The project list: the shared project offers its details and devices only, and both open.
  await page.goto('/project/index');
  const projectRow = page.getByTestId('table-projects').locator(`tr[data-row-key="${project}"]`);
  await expect(projectRow).toBeVisible();
  for (const action of ['edit', 'delete', 'users']) await expect(page.getByTestId(`row-${action}-${project}`)).toHaveCount(0);
  await page.getByTestId(`row-details-${project}`).click();
  await expect(page.getByTestId('project-details')).toBeVisible();
  await expect(page.getByTestId('project-edit')).toHaveCount(0);
  await page.goto('/project/index');
  await page.getByTestId(`row-devices-${project}`).click();
  await expect(page.getByTestId('table-devices').locator(`tr[data-row-key="${device}"]`)).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(refused, 'answers refused with 403 or 404').toEqual([]);

  // The owner still sees every action.
  await context.clearCookies();
  await setTokenCookie(context, session.token);
  await page.goto('/device/list');
  for (const action of ['edit', 'secret', 'delete']) await expect(page.getByTestId(`row-${action}-${device}`)).toBeVisible();
  await page.goto(`/project/info?id=${device}`);
  await expect(page.getByTestId('device-edit')).toBeVisible();
  await page.goto('/project/index');
  await expect(page.getByTestId(`row-edit-${project}`)).toBeVisible();
});
