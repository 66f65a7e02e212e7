import type { Page } from '@playwright/test';
import { row, sheet, XLSX_TYPE } from './device-sheet';
import { callApi, expect, pickOption, test } from './fixtures';

/**
 * Projects and the device registry against the real server: a project is created, a device is
 * added (its secret shown once), the list is filtered, a sheet with one bad row is imported in
 * "valid rows" mode, devices are deleted in bulk and one is moved to another project. One API
 * login for the whole journey.
 */

const devicesTable = (page: Page) => page.getByTestId('table-devices');
/** The list's row of a device, by its exact SN cell (`X-1` must not match `X-1-B`). */
const deviceRow = (page: Page, sn: string) =>
  devicesTable(page)
    .locator('tr.ant-table-row')
    .filter({ has: page.getByRole('cell', { name: sn, exact: true }) });

test('projects and devices: create, add with a one-time secret, filter, import with a bad row, bulk delete, move', async ({
  page,
  session,
}) => {
  const stamp = Date.now().toString(36);
  const projectName = `E2E Harbour ${stamp}`;
  const sn = `E2E-${stamp}-1`;
  const importedSn = `E2E-${stamp}-IMP`;
  const badSn = `E2E-${stamp}-BAD`;
  // A 15-digit IMEI of this run, so repeated runs on one server do not see each other's devices.
  const imei = `86${String(Date.now()).slice(-13)}`;

  await test.step('create a project', async () => {
    await page.goto('/project/index');
    await expect(page.getByTestId('table-projects')).toBeVisible();
    await page.getByTestId('btn-add').click();
    await page.getByTestId('project-submit').click();
    await expect(page.getByText('Please enter the name')).toBeVisible();
    await page.getByTestId('field-name').fill(projectName);
    await page.getByTestId('field-address').fill('Pier Road 1');
    await page.getByTestId('project-submit').click();
    const projectRow = page.getByTestId('table-projects').locator('tr.ant-table-row', { hasText: projectName });
    await expect(projectRow).toBeVisible();
    await expect(projectRow).toContainText('admin');
    await projectRow.getByRole('button', { name: 'Devices' }).click();
    await expect(page).toHaveURL(/\/device\/list\?projectId=\d+$/);
    await expect(page.getByTestId('filter-project')).toContainText(projectName);
  });

  await test.step('add a device: required messages, then its secret shown once', async () => {
    await page.getByTestId('btn-add').click();
    await page.getByTestId('device-submit').click();
    await expect(page.getByText('Please enter the device name')).toBeVisible();
    await expect(page.getByText('Please enter the device code')).toBeVisible();
    await expect(page.getByText('Please select the type')).toBeVisible();

    await page.getByTestId('field-name').fill('Battery rack 1');
    await page.getByTestId('field-sn').fill(sn);
    await pickOption(page, page.getByTestId('field-typeId'), 'BMU');
    await expect(page.getByTestId('field-projectId')).toContainText(projectName);
    await page.getByTestId('field-imei').fill(imei);
    await page.getByTestId('device-submit').click();

    const secret = page.getByTestId('secret-value');
    await expect(secret).toBeVisible();
    await expect(page.getByText('It will not be shown again')).toBeVisible();
    expect((await secret.innerText()).trim()).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    await page.getByTestId('secret-close').click();
    await expect(secret).toHaveCount(0);

    await expect(deviceRow(page, sn)).toContainText(projectName);
    await expect(deviceRow(page, sn)).toContainText('Offline');
    // Editing shows the device again, never its secret.
    await deviceRow(page, sn).getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByTestId('field-sn')).toHaveValue(sn);
    await expect(page.getByTestId('secret-value')).toHaveCount(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  await test.step('filter the list', async () => {
    // A second device in the project, through the API, so that the filters have something to drop.
    const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', {
      token: session.token,
    });
    const bmu = types.body.data.find((t) => t.code === 'BMU')!;
    const projectId = Number(new URL(page.url()).searchParams.get('projectId'));
    const added = await callApi(page.request, 'POST', '/device/add', {
      token: session.token,
      data: { name: 'Rack 2', sn: `${sn}-B`, typeId: bmu.id, projectId },
    });
    expect(added.body.code).toBe(20000);
    await page.reload();
    await expect(deviceRow(page, `${sn}-B`)).toBeVisible();
    await expect(devicesTable(page).locator('tr.ant-table-row')).toHaveCount(2);

    // The warning level comes from active alarms only (neither device has one).
    await pickOption(page, page.getByTestId('filter-level'), '3 · Major');
    await expect(devicesTable(page)).toContainText('No data');

    await page.getByTestId('filter-reset').click();
    // Reset also drops the project the list was opened with, from the address too, and keeps the
    // (cleared) table, so the search typed next is not lost.
    await expect(page).toHaveURL(/\/device\/list$/);
    await page.getByTestId('filter-q').locator('input').fill(imei);
    await page.getByTestId('filter-q').locator('input').press('Enter');
    await expect(devicesTable(page).locator('tr.ant-table-row')).toHaveCount(1);
    await expect(deviceRow(page, sn)).toBeVisible();

    await pickOption(page, page.getByTestId('filter-online'), 'Online');
    await expect(devicesTable(page)).toContainText('No data');
    await page.getByTestId('filter-reset').click();
    await expect(deviceRow(page, sn)).toBeVisible();
    await expect(deviceRow(page, `${sn}-B`)).toBeVisible();
  });

  await test.step('import an .xlsx with one bad row in "valid rows" mode', async () => {
    await page.getByTestId('btn-import').click();
    const dragger = page.getByTestId('import-dragger').locator('input[type=file]');

    // Nothing attached yet, then a file of the wrong kind.
    await page.getByTestId('import-start').click();
    await expect(page.getByText('Please add an attachment')).toBeVisible();
    await dragger.setInputFiles({ name: 'devices.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n') });
    await expect(
      page.getByText('Only .xlsx or .xls files can be uploaded: delete this file and upload again'),
    ).toBeVisible();

    await dragger.setInputFiles({
      name: 'devices.xlsx',
      mimeType: XLSX_TYPE,
      buffer: sheet([
        row({ name: 'Imported rack', sn: importedSn, type: 'BMU', project: projectName, lng: 121.5, lat: 31.2 }),
        row({ name: 'Bad rack', sn: badSn, type: 'BMU', lng: 200, lat: 31.2 }),
      ]),
    });
    await expect(page.getByText('Only .xlsx or .xls files')).toHaveCount(0);
    await page.getByTestId('import-mode-valid').click();
    await page.getByTestId('import-start').click();

    const report = page.getByTestId('import-report');
    await expect(report).toContainText('1 device imported; rows with errors skipped: 1.');
    const errors = page.getByTestId('import-errors').locator('tr.ant-table-row');
    await expect(errors).toHaveCount(1);
    await expect(errors.locator('td').nth(0)).toHaveText('3');
    await expect(errors.locator('td').nth(1)).toHaveText('Longitude');
    await expect(errors.locator('td').nth(2)).toHaveText('Must be between -180 and 180');
    await expect(page.getByTestId('import-progress')).toContainText('Imported');

    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await expect(deviceRow(page, importedSn)).toContainText(projectName);
    await expect(deviceRow(page, badSn)).toHaveCount(0);
  });

  await test.step('bulk delete with a confirmation naming the count', async () => {
    await expect(page.getByTestId('btn-bulk-delete')).toBeDisabled();
    for (const s of [sn, importedSn]) {
      await deviceRow(page, s).locator('.ant-table-selection-column input').check();
    }
    await page.getByTestId('btn-bulk-delete').click();
    const dialog = page.locator('.ant-modal-confirm');
    await expect(dialog).toContainText('Delete 2 devices?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(deviceRow(page, sn)).toBeVisible();

    await page.getByTestId('btn-bulk-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect(page.getByText('2 devices deleted')).toBeVisible();
    await expect(deviceRow(page, sn)).toHaveCount(0);
    await expect(deviceRow(page, importedSn)).toHaveCount(0);
    await expect(deviceRow(page, `${sn}-B`)).toBeVisible();

    const left = await callApi<{ total: number }>(page.request, 'GET', `/device/list?q=E2E-${stamp}`, {
      token: session.token,
    });
    expect(left.body.data.total).toBe(1);
  });
  await test.step('move a device to another project', async () => {
    const otherName = `E2E Depot ${stamp}`;
    const made = await callApi(page.request, 'POST', '/project/addproject', {
      token: session.token,
      data: { name: otherName },
    });
    expect(made.body.code).toBe(20000);

    await deviceRow(page, `${sn}-B`).locator('.ant-table-selection-column input').check();
    await page.getByTestId('btn-bulk-move').click();
    await page.getByTestId('move-ok').click();
    await expect(page.getByText('Please select a project')).toBeVisible();
    await pickOption(page, page.getByTestId('move-target'), otherName, { search: otherName });
    await page.getByTestId('move-ok').click();
    await expect(page.getByText('1 device moved')).toBeVisible();

    await expect(deviceRow(page, `${sn}-B`)).toContainText(otherName);
    await pickOption(page, page.getByTestId('filter-project'), projectName, { search: projectName });
    await expect(devicesTable(page)).toContainText('No data');
    await pickOption(page, page.getByTestId('filter-project'), otherName, { search: otherName });
    await expect(devicesTable(page).locator('tr.ant-table-row')).toHaveCount(1);
    await expect(deviceRow(page, `${sn}-B`)).toBeVisible();
  });
});
