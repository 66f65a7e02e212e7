/**
 * The operation log reads as words in the UI language: action names instead of codes, the acting
 * role by name, and a "field: value" summary with the object's name; the stored record (code,
 * JSON) stays one click away, escaped like everything else.
 */
import type { Locator, Page } from '@playwright/test';
import { LANGUAGE_COOKIE, MAIN_URL, callApi, expect, pickOption, test } from './fixtures';

const run = Date.now().toString(36);
/** Markup in a name must arrive as text. */
const ROLE = { name: `Night <b>shift</b> ${run}`, identification: `NIGHT_${run.toUpperCase()}` };
const USER = `e2e-log-${run}`;
const LONG_ADDRESS = `Building 7, ${'Harbour Industrial Park, '.repeat(3)}Zone ${run}`;

/** The log row whose summary names `text`, and its parts. */
function logRow(page: Page, text: string) {
  const row = page.getByTestId('table-logs').locator('tr[data-row-key]').filter({ hasText: text });
  return {
    row,
    action: row.getByTestId('log-action'),
    summary: row.getByTestId('log-summary'),
    /** The role, under the user's name. */
    role: row.getByTestId('log-role'),
  };
}

async function expectNoCodes(row: Locator) {
  await expect(row).not.toContainText('role.add');
  await expect(row).not.toContainText('user.add');
  await expect(row).not.toContainText('SUPERADMIN');
}

test('the operation log names actions, roles and objects in the UI language', async ({ page, request, context, session }) => {
  // Two changes to read about: a role, and a user with that many fields that one is cut short.
  const token = session.token;
  const added = await callApi(request, 'POST', '/role/add', { token, data: ROLE });
  expect(added.body.code).toBe(20000);
  const roles = await callApi<{ items: { id: number; identification: string }[] }>(request, 'GET', '/role/getlist?limit=200', { token });
  const battery = roles.body.data.items.find((r) => r.identification === 'BATTERYMANAGEMENT')!.id;
  const user = await callApi(request, 'POST', '/user/add', {
    token,
    data: {
      username: USER,
      password: 'log-user-pass',
      type: 1,
      roleId: battery,
      corporateName: 'Acme Energy',
      corporateAddress: LONG_ADDRESS,
      contactNumber: '555 0100',
      language: 'es',
    },
  });
  expect(user.body.code).toBe(20000);

  // English.
  await page.goto('/sys/logs');
  await expect(page.getByTestId('table-logs')).toBeVisible();
  const roleLog = logRow(page, `Role ${ROLE.name}`);
  await expect(roleLog.action).toHaveText('Create role');
  await expect(roleLog.summary).toHaveText(`Role ${ROLE.name} — Identification: ${ROLE.identification}`);
  await expect(roleLog.role).toHaveText('Super administrator');
  await expectNoCodes(roleLog.row);
  await expect(page.getByTestId('table-logs').locator('b')).toHaveCount(0);

  const userLog = logRow(page, `User ${USER}`);
  await expect(userLog.action).toHaveText('Create user');
  await expect(userLog.summary).toContainText('User type: Company');
  await expect(userLog.summary).toContainText('Contact number: 555 0100');
  await expect(userLog.summary).toContainText('Language: Español');
  await expect(userLog.summary).toContainText('Role: Battery management');
  await expect(userLog.summary).toContainText('Parent user: admin');
  // The long address is cut short in the cell and whole in the tooltip.
  await expect(userLog.summary).toContainText('Company address: Building 7, Harbour');
  await expect(userLog.summary).not.toContainText(LONG_ADDRESS);
  await userLog.summary.hover();
  await expect(page.getByRole('tooltip').filter({ hasText: LONG_ADDRESS })).toBeVisible();
  await expectNoCodes(userLog.row);

  // The stored record on demand: the code and the JSON, as text.
  const id = await roleLog.row.getAttribute('data-row-key');
  await page.getByTestId(`log-expand-${id}`).click();
  const raw = page.getByTestId(`log-raw-${id}`);
  await expect(raw).toBeVisible();
  await expect(raw).toContainText('role.add');
  await expect(raw).toContainText('SUPERADMIN');
  await expect(raw).toContainText(`"identification": "${ROLE.identification}"`);
  await expect(raw).toContainText(ROLE.name);
  await expect(raw).toContainText('Browser');
  await expect(page.getByTestId('table-logs').locator('b')).toHaveCount(0);

  // The action filter offers names, not codes.
  await pickOption(page, page.getByTestId('filter-action'), 'Create role');
  await page.getByTestId('filter-search').click();
  const actions = page.getByTestId('table-logs').getByTestId('log-action');
  await expect(actions.first()).toHaveText('Create role');
  await expect(page.getByTestId('table-logs')).not.toContainText('Create user');
  expect(new Set(await actions.allTextContents())).toEqual(new Set(['Create role']));

  // Chinese.
  await context.addCookies([{ name: LANGUAGE_COOKIE, value: 'zh', url: MAIN_URL, sameSite: 'Lax' }]);
  // The list without the action filter (a reload would keep it: filters live in the address).
  await page.goto('/sys/logs');
  const roleLogZh = logRow(page, `角色 ${ROLE.name}`);
  await expect(roleLogZh.action).toHaveText('新增角色');
  await expect(roleLogZh.summary).toHaveText(`角色 ${ROLE.name} — 标识: ${ROLE.identification}`);
  await expect(roleLogZh.role).toHaveText('超级管理员');
  await expectNoCodes(roleLogZh.row);
  const userLogZh = logRow(page, `用户 ${USER}`);
  await expect(userLogZh.action).toHaveText('新增用户');
  await expect(userLogZh.summary).toContainText('角色: 电池管理');
  await expect(userLogZh.summary).toContainText('语言: Español');
  await expectNoCodes(userLogZh.row);
  await pickOption(page, page.getByTestId('filter-action'), '新增用户');
});
