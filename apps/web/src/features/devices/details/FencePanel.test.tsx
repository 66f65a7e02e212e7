/**
 * The geo-fence panel against the real server (apps/server/test/web-server.ts): a fence typed in
 * for a device that is offline ends "device offline, so delivery failed" (§8), is listed in that
 * state with its history, and is then removed (no command needed: the device never kept it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DeviceDto } from '@iot/contract';
import { ADMIN, call, renderScreen, signIn, tokenOf } from '../../../test/server';
import { FencePanel } from './FencePanel';

const run = Date.now().toString(36);
let device: DeviceDto;

beforeAll(async () => {
  const admin = await tokenOf(ADMIN.username, ADMIN.password);
  const types = await call<{ id: number; code: string }[]>(admin, 'GET', '/devicetype/typeoptionslist');
  const added = await call<{ id: number }>(admin, 'POST', '/device/add', {
    name: `Fence rack ${run}`,
    sn: `CTFEN${run}`.toUpperCase(),
    typeId: types.find((t) => t.code === 'BMU')!.id,
  });
  device = await call<DeviceDto>(admin, 'GET', `/device/basic?id=${added.id}`);
  await signIn(ADMIN.username, ADMIN.password);
});

describe('FencePanel', () => {
  it('sends a fence to an offline device: delivery failed, listed with its history, then removed', async () => {
    expect(device.can.fence).toBe(true);
    renderScreen(<FencePanel device={device} live={{ values: {}, commands: {} }} />);
    await screen.findByText('No geo-fences');
    fireEvent.change(screen.getByLabelText('Longitude'), { target: { value: '121.4737' } });
    fireEvent.change(screen.getByLabelText('Latitude'), { target: { value: '31.2304' } });
    fireEvent.change(screen.getByLabelText('Radius (m)'), { target: { value: '800' } });
    fireEvent.click(screen.getByTestId('fence-send'));

    // The confirmation names the device and what is sent; nothing goes before it is confirmed.
    const dialog = await screen.findByTestId('command-confirm');
    expect(within(dialog).getByTestId('command-confirm-devices').textContent).toBe(`${device.name} (${device.sn})`);
    expect(dialog.textContent).toContain('121.473700, 31.230400');
    expect(dialog.textContent).toContain('800 m');
    fireEvent.click(screen.getByTestId('command-confirm-ok'));

    const result = await screen.findByTestId('fence-result');
    await waitFor(() => expect(result.getAttribute('data-status')).toBe('offline'));
    expect(result.textContent).toContain('Device offline, so delivery failed');
    const state = await waitFor(() => screen.getByTestId(/^fence-state-\d+$/));
    expect(state.getAttribute('data-state')).toBe('offline');
    expect(state.textContent).toBe('Failed: device offline');
    // Never kept by the device: no re-lock offered.
    const id = state.getAttribute('data-testid')!.replace('fence-state-', '');
    expect(screen.queryByTestId(`fence-relock-${id}`)).toBeNull();

    fireEvent.click(screen.getByTestId(`fence-remove-${id}`));
    await screen.findByTestId('command-confirm');
    fireEvent.click(screen.getByTestId('command-confirm-ok'));
    await waitFor(() => expect(screen.getByTestId(`fence-state-${id}`).getAttribute('data-state')).toBe('removed'));
    await waitFor(() => expect(screen.getByTestId('fence-result').getAttribute('data-status')).toBe('removed'));
  });
});
