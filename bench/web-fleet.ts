/**
 * A small fleet seeded through the real API, shared by the browser benchmarks (`bench/web.ts
 * --fleet`, `bench/dashboard-page.ts`): three simulated battery units, two of which tripped a
 * fault, so the dashboard draws its figures, charts and lists instead of its empty state.
 */
import { BmuModel, type Uplink } from '@iot/sim-model';

export async function seedFleet(base: string, bearer: string): Promise<void> {
  const call = async <T>(method: string, route: string, body?: object) => {
    const res = await fetch(`${base}/api/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return ((await res.json()) as { data: T }).data;
  };
  const types = await call<{ id: number; code: string }[]>('GET', '/devicetype/typeoptionslist');
  const typeId = types.find((t) => t.code === 'BMU')!.id;
  for (let k = 0; k < 3; k++) {
    const sn = `BENCHWEB-${k}`;
    const device = await call<{ secret: string }>('POST', '/device/add', { name: `Bench rack ${k}`, sn, typeId });
    const start = Date.now() - 3_600_000;
    const bmu = new BmuModel({ sn, now: start, seed: k + 3, faultsPerHour: 60, track: false });
    const messages: Uplink[] = [];
    for (let i = 1; i < 50_000 && messages.at(-1)?.kind !== 'alarm'; i++) messages.push(bmu.next(start + i * 1000));
    for (const m of k < 2 ? messages.slice(-4) : messages.slice(-4, -1)) {
      await fetch(`${base}/api/v1/ingest/${m.kind}`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${sn}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify(m.body),
      });
    }
  }
  const home = await call<{ devices: { total: number }; alarms: { total: number } }>('GET', '/home/list');
  if (home.devices.total !== 3 || home.alarms.total < 2) throw new Error(`seeding the fleet failed (${JSON.stringify(home)})`);
  console.log(`fleet: ${home.devices.total} devices, ${home.alarms.total} alarms`);
}
