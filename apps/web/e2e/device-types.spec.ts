import AxeBuilder from '@axe-core/playwright';
import { callApi, expect, openFromSidebar, pickOption, test } from './fixtures';

/**
 * Device types (§2 /device/type, addtype, setparam, setalarm): create a type, give it one
 * parameter of every data type, add alarm rules, see them persisted, see a server validation error
 * highlighted on its row, delete the type. One API login for the whole flow.
 */

/** Picks an option of an antd Select by its visible text. */
interface ParamDto {
  id: number;
  semaphoreId: string;
  dataType: string;
  [key: string]: unknown;
}

test.describe('device types', () => {
  test('create a type, set parameters and alarm rules, server errors highlighted', async ({ page, request, session }) => {
    // One long journey (about 40 s on an idle machine): room for a loaded CI host.
    test.setTimeout(150_000);
    const code = `E2E-${Date.now().toString(36).toUpperCase()}`;

    // ------------------------------------------------------------ list and the add form
    await page.goto('/dashboard');
    await openFromSidebar(page, 'Devices', 'Device types');
    const table = page.getByTestId('table-devicetypes');
    await expect(table.getByTestId('type-row-BMU')).toContainText('Built-in');
    await expect(table.getByTestId('type-row-BMU')).toContainText('Battery management unit');
    // The built-in type cannot be deleted.
    await expect(table.getByTestId('type-row-BMU').getByText('Delete')).toHaveCount(0);

    await page.getByTestId('btn-add').click();
    await expect(page).toHaveURL(/\/device\/addtype$/);
    await page.getByTestId('btn-save').click();
    await expect(page.getByText('Please enter the type code')).toBeVisible();
    await expect(page.getByText('Please enter the name')).toBeVisible();

    await page.getByTestId('field-code').fill(code);
    await page.getByTestId('field-name').fill('48V pack');
    await page.getByTestId('field-remarks').fill('created by the e2e spec');
    await page.getByTestId('field-recordTrack').click();
    await page.getByTestId('btn-save').click();
    await expect(page).toHaveURL(/\/device\/type$/);
    await expect(page.getByText('Device type created')).toBeVisible();
    const row = table.getByTestId(`type-row-${code}`);
    await expect(row).toContainText('48V pack');

    // ------------------------------------------------------------ parameters
    await row.getByText('Parameters').click();
    await expect(page).toHaveURL(/\/device\/setparam\?id=\d+$/);
    const typeId = Number(new URL(page.url()).searchParams.get('id'));
    await expect(page.getByTestId('type-header')).toContainText(code);
    await expect(page.getByTestId('type-header')).toContainText('48V pack');

    const params = [
      { id: 'P1', name: '电压', en: 'Voltage', type: 'Number' },
      { id: 'P1', name: '计数', en: 'Count', type: 'Integer' }, // duplicate on purpose, fixed below
      { id: 'P3', name: '开关', en: 'Switch', type: 'Boolean' },
      { id: 'P4', name: '状态', en: 'State', type: 'Enum' },
      { id: 'P5', name: '备注', en: 'Note', type: 'Text' },
    ];
    for (const [i, p] of params.entries()) {
      await page.getByTestId('btn-add-row').click();
      const r = page.getByTestId(`param-row-${i}`);
      await r.getByTestId('field-semaphoreId').fill(p.id);
      await r.getByTestId('field-name').fill(p.name);
      // Translations are in the row's expansion.
      await r.getByTestId('btn-more').click();
      await page.getByTestId(`param-more-${i}`).getByTestId('field-nameEn').fill(p.en);
      if (p.type !== 'Number') await pickOption(page, r.getByTestId('field-dataType'), p.type);
    }
    const p0 = page.getByTestId('param-row-0');
    await p0.getByTestId('field-unit').fill('V');
    await page.getByTestId('param-more-0').getByTestId('field-precision').fill('2');
    await p0.getByTestId('field-min').fill('100');
    await p0.getByTestId('field-max').fill('0');
    await page.getByTestId('param-row-2').getByTestId('field-writable').click();

    // Client checks: duplicate semaphore id, min above max, an enum without values.
    await page.getByTestId('btn-save').click();
    await expect(page.getByTestId('param-row-1')).toHaveAttribute('data-error', 'true');
    await expect(page.getByTestId('param-row-1')).toContainText('Semaphore id P1 appears twice');
    await expect(p0).toContainText('Max must not be below min');
    await expect(page.getByTestId('param-row-3')).toContainText('An enum needs at least one value');
    // The problems under their cells are announced and readable (axe, WCAG 2.1 A/AA).
    const axe = await new AxeBuilder({ page })
      .include('[data-testid="table-params"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

    await page.getByTestId('param-row-1').getByTestId('field-semaphoreId').fill('P2');
    await p0.getByTestId('field-min').fill('0');
    await p0.getByTestId('field-max').fill('100');
    await page.getByTestId('param-row-3').getByTestId('field-enumValues').click();
    await page.getByTestId('btn-add-value').click();
    await page.getByTestId('enum-row-0').getByTestId('field-label').fill('静置');
    await page.getByTestId('enum-row-0').getByTestId('field-labelEn').fill('Idle');
    await page.getByTestId('btn-add-value').click();
    await page.getByTestId('enum-row-1').getByTestId('field-label').fill('运行');
    await page.getByTestId('enum-row-1').getByTestId('field-labelEn').fill('Running');
    await page.getByTestId('btn-enum-ok').click();
    await expect(page.getByTestId('enum-editor')).toHaveCount(0);
    await expect(page.getByTestId('param-row-3').getByTestId('field-enumValues')).toHaveText('2 values');

    // Order: move the last row up and back down again.
    await page.getByTestId('param-row-4').getByTestId('btn-up').click();
    await expect(page.getByTestId('param-row-3').getByTestId('field-semaphoreId')).toHaveValue('P5');
    await page.getByTestId('param-row-3').getByTestId('btn-down').click();
    await expect(page.getByTestId('param-row-4').getByTestId('field-semaphoreId')).toHaveValue('P5');

    await page.getByTestId('btn-save').click();
    await expect(page.getByText('5 parameters saved')).toBeVisible();
    await expect(page.locator('[data-error="true"]')).toHaveCount(0);

    const saved = await callApi<ParamDto[]>(request, 'GET', `/devicetype/setparam?id=${typeId}`, { token: session.token });
    expect(saved.body.data.map((p) => [p.semaphoreId, p.dataType])).toEqual([
      ['P1', 'number'],
      ['P2', 'integer'],
      ['P3', 'boolean'],
      ['P4', 'enum'],
      ['P5', 'text'],
    ]);
    expect(saved.body.data[0]).toMatchObject({ unit: 'V', precision: 2, min: 0, max: 100 });
    expect(saved.body.data[2]).toMatchObject({ writable: true });
    expect(saved.body.data[3]?.enumValues).toHaveLength(2);

    // ------------------------------------------------------------ alarm rules
    await page.getByTestId('link-back').click();
    // Default columns: code, name, built-in, parameters, alarm rules, actions.
    await expect(row.locator('td').nth(3)).toHaveText('5');
    await row.getByText('Alarms').click();
    await expect(page).toHaveURL(new RegExp(`/device/setalarm\\?id=${typeId}$`));

    await page.getByTestId('btn-add-row').click();
    let r = page.getByTestId('alarm-row-0');
    await pickOption(page, r.getByTestId('field-semaphoreId'), 'P1 · Voltage');
    // Numeric parameters offer every comparison, ranges need a second threshold.
    await pickOption(page, r.getByTestId('field-comparison'), 'Outside range');
    await r.getByTestId('field-threshold').fill('10');
    await r.getByTestId('field-threshold2').fill('90');
    await pickOption(page, r.getByTestId('field-level'), '1 · Warning');
    await r.getByTestId('field-message').fill('电压异常');
    await r.getByTestId('btn-more').click();
    await page.getByTestId('alarm-more-0').getByTestId('field-messageEn').fill('Voltage out of range');
    await page.getByTestId('alarm-more-0').getByTestId('field-holdSeconds').fill('30');

    await page.getByTestId('btn-add-row').click();
    r = page.getByTestId('alarm-row-1');
    await pickOption(page, r.getByTestId('field-semaphoreId'), 'P4 · State');
    // Enum parameters: only = and ≠, the threshold is one of the enum's values.
    await r.getByTestId('field-comparison').click();
    await expect(page.locator('.ant-select-dropdown .ant-select-item-option').filter({ visible: true })).toHaveText(['=', '≠']);
    await page.keyboard.press('Escape');
    await pickOption(page, r.getByTestId('field-threshold'), '1 · Running');
    await r.getByTestId('field-message').fill('运行中');

    await page.getByTestId('btn-add-row').click();
    r = page.getByTestId('alarm-row-2');
    await pickOption(page, r.getByTestId('field-semaphoreId'), 'P3 · Switch');
    await pickOption(page, r.getByTestId('field-comparison'), '≠');
    await page.getByTestId('btn-save').click();
    await expect(r).toHaveAttribute('data-error', 'true');
    await expect(r).toContainText('Please enter the message');
    await r.getByTestId('field-message').fill('开关断开');
    await page.getByTestId('btn-save').click();
    await expect(page.getByText('3 alarm rules saved')).toBeVisible();

    await page.reload();
    await expect(page.getByTestId('alarm-row-2')).toBeVisible();
    await expect(page.getByTestId('alarm-row-3')).toHaveCount(0);
    await expect(page.getByTestId('alarm-row-0').getByTestId('field-threshold2')).toHaveValue(/^90/);
    await expect(page.getByTestId('alarm-row-0')).toContainText('1 · Warning');
    await expect(page.getByTestId('alarm-row-1')).toContainText('1 · Running');
    await expect(page.getByTestId('alarm-row-2')).toContainText('True');

    // ------------------------------------------------------------ a server validation error
    // Someone turns P5 into a number while this page still knows it as text: the server names
    // rules.3.threshold and the row is highlighted.
    await page.getByTestId('btn-add-row').click();
    r = page.getByTestId('alarm-row-3');
    await pickOption(page, r.getByTestId('field-semaphoreId'), 'P5 · Note');
    await r.getByTestId('field-threshold').fill('ERR');
    await r.getByTestId('field-message').fill('备注错误');
    const changed = await callApi(request, 'POST', '/devicetype/addsetparam', {
      token: session.token,
      data: {
        id: typeId,
        params: saved.body.data.map(({ id: _id, ...p }) => (p.semaphoreId === 'P5' ? { ...p, dataType: 'number' } : p)),
      },
    });
    expect(changed.body.code).toBe(20000);
    await page.getByTestId('btn-save').click();
    await expect(r).toHaveAttribute('data-error', 'true');
    await expect(r).toContainText('Not accepted by the server');
    await expect(page.getByTestId('save-problem')).toContainText('Row 4, Threshold');
    await expect(page.getByTestId('save-problem')).toContainText('A number is required');
    const rules = await callApi<unknown[]>(request, 'GET', `/devicetype/setalarm?id=${typeId}`, { token: session.token });
    expect(rules.body.data).toHaveLength(3);

    // ------------------------------------------------------------ delete with confirmation
    await page.getByTestId('link-back').click();
    await expect(row.locator('td').nth(4)).toHaveText('3');
    await row.getByText('Delete').click();
    await page.getByTestId('confirm-ok').filter({ visible: true }).click();
    await expect(page.getByText('Device type "48V pack" deleted')).toBeVisible();
    await expect(row).toHaveCount(0);
  });
});
