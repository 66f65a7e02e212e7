/**
 * A project's forecast as the details page and the dashboard card show it, against the real
 * server, whose weather provider is a local Open-Meteo (apps/server/test/web-server.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { ADMIN, call, renderScreen, signIn, tokenOf } from '../../test/server';
import { ProjectWeather, weatherWord } from './ProjectWeather';

const run = Date.now().toString(36);
let withPosition = 0;
let withoutPosition = 0;

beforeAll(async () => {
  const admin = await tokenOf(ADMIN.username, ADMIN.password);
  withPosition = (await call(admin, 'POST', '/project/addproject', { name: `Weather ${run}`, weather: true, lng: 116.39, lat: 39.91 })).id;
  withoutPosition = (await call(admin, 'POST', '/project/addproject', { name: `Nowhere ${run}`, weather: true })).id;
  await signIn(ADMIN.username, ADMIN.password);
});

describe('ProjectWeather', () => {
  it('shows now and the next days from the provider', async () => {
    renderScreen(<ProjectWeather projectId={withPosition} />);
    await waitFor(() => expect(screen.getByTestId('project-weather').textContent).toContain('Now: Overcast 22'));
    const text = screen.getByTestId('project-weather').textContent!;
    expect(text).toContain('wind 12 km/h');
    expect(text).toContain('2026-11-28: Rain 14');
    expect(text).toContain('7.4');
  });

  it('says why there is no forecast', async () => {
    renderScreen(<ProjectWeather projectId={withoutPosition} />);
    expect(await screen.findByText('No forecast: the project has no position')).toBeTruthy();
  });

  it('names the WMO codes', () => {
    expect([0, 2, 3, 45, 53, 63, 81, 73, 95].map(weatherWord)).toEqual([
      'clear', 'partly', 'overcast', 'fog', 'drizzle', 'rain', 'rain', 'snow', 'thunder',
    ]);
  });
});
