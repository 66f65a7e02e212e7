/**
 * The parameter editor against the real server (apps/server/test/web-server.ts): a problem in a
 * closed row expansion on another page is shown when saving (the page and the row open, the
 * cell holds the message and the focus, nothing is sent), a fixed cell loses its problem, and a
 * row is deleted after its confirmation (the delete button keeps the focus when it opens).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sent } from '../../test/setup';
import { ADMIN, call, renderScreen, signIn, tokenOf } from '../../test/server';
import ParamSettingsPage from './ParamSettingsPage';

const run = Date.now().toString(36).toUpperCase();
let typeId: number;

const row = (i: number) => screen.getByTestId(`param-row-${i}`);
const footer = () => screen.getByTestId('param-settings').querySelector('.ant-typography-secondary')?.textContent ?? '';
/** Whether row `i`'s expansion is shown (a closed one stays in the page, hidden, once opened). */
const open = (i: number) => {
  const more = screen.queryByTestId(`param-more-${i}`);
  return !!more && more.closest('tr')?.style.display !== 'none';
};
const saves = () => sent.filter((u) => u.startsWith('/api/v1/devicetype/addsetparam')).length;

beforeAll(async () => {
  const admin = await tokenOf(ADMIN.username, ADMIN.password);
  typeId = (await call(admin, 'POST', '/devicetype/addtype', { code: `CP${run}`.slice(0, 16), name: '参数组件测试' })).id;
  // Twelve parameters: two pages of ten.
  await call(admin, 'POST', '/devicetype/addsetparam', {
    id: typeId,
    params: Array.from({ length: 12 }, (_, i) => ({
      semaphoreId: `P${i}`,
      name: `参数${i}`,
      nameEn: `Parameter ${i}`,
      dataType: 'number',
      sort: i + 1,
    })),
  });
  await signIn(ADMIN.username, ADMIN.password);
});

describe('ParamSettingsPage', () => {
  it('opens the page and the row of a problem hidden in a closed expansion when saving', async () => {
    renderScreen(<ParamSettingsPage />, `/device/setparam?id=${typeId}`);
    await screen.findByTestId('param-row-0');
    // Row 12 is on page 2: open its expansion, give it an English name that is too long, close it.
    fireEvent.click(within(screen.getByTestId('param-settings')).getByTitle('2'));
    fireEvent.click(within(await screen.findByTestId('param-row-11')).getByTestId('btn-more'));
    const more = await screen.findByTestId('param-more-11');
    fireEvent.change(within(more).getByTestId('field-nameEn'), { target: { value: 'x'.repeat(70) } });
    expect(more.textContent).toContain('At most 64 characters');
    fireEvent.click(within(row(11)).getByTestId('btn-more'));
    await waitFor(() => expect(open(11)).toBe(false));
    fireEvent.click(within(screen.getByTestId('param-settings')).getByTitle('1'));
    await screen.findByTestId('param-row-0');

    const before = saves();
    fireEvent.click(screen.getByTestId('btn-save'));
    await waitFor(() => expect(open(11)).toBe(true));
    const shown = screen.getByTestId('param-more-11');
    expect(shown.textContent).toContain('At most 64 characters');
    expect(row(11).getAttribute('data-error')).toBe('true');
    const input = within(shown).getByTestId('field-nameEn');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(saves()).toBe(before);

    // Fixed, the cell and its row lose the problem.
    fireEvent.change(input, { target: { value: 'Parameter 11' } });
    await waitFor(() => expect(screen.getByTestId('param-more-11').textContent).not.toContain('At most'));
    expect(row(11).getAttribute('data-error')).toBeNull();
  });

  it('deletes a row after its confirmation', async () => {
    renderScreen(<ParamSettingsPage />, `/device/setparam?id=${typeId}`);
    await screen.findByTestId('param-row-0');
    expect(footer()).toContain('12 parameters');
    fireEvent.click(within(row(0)).getByTestId('btn-delete-row'));
    expect(await screen.findByText('Delete "参数0"? It is removed when you save.')).toBeTruthy();
    // The popover is mounted on this first click: the button keeps the focus (keyboard users).
    await waitFor(() => expect(document.activeElement).toBe(within(row(0)).getByTestId('btn-delete-row')));
    expect(footer()).toContain('12 parameters');
    fireEvent.click(await screen.findByTestId('btn-confirm-delete'));
    await waitFor(() => expect(footer()).toContain('11 parameters'));
    expect((within(row(0)).getByTestId('field-semaphoreId') as HTMLInputElement).value).toBe('P1');
  });
});
