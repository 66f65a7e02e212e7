import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { TestProject } from 'vitest/node';
import { ADMIN, bearer, buildTestApp } from './helpers.js';
import { FakeOpenMeteo } from './open-meteo.js';

/**
 * The real server for the web's component tests (vitest project `web-components`): built once on
 * an in-memory PGlite and listening on a free port, whose address the tests read with
 * `inject('apiBase')`. The tests create what they need through the API; the exceptions are the
 * bulk project and the firmware version below.
 */
export default async function setup(project: TestProject) {
  // Project forecasts come from a local Open-Meteo.
  const weather = new FakeOpenMeteo();
  // Every screen's test signs in from 127.0.0.1, several files at once: more than the 30 logins a
  // minute an address gets by default when the suite runs fast.
  const t = await buildTestApp({ WEATHER_URL: await weather.start(), LOGIN_RATE_LIMIT: '1000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;

  // A project holding more devices than lists count (10,000): one statement, as
  // test/lists.test.ts does, because 10,050 adds through the API would take minutes on PGlite.
  const token = await t.login();
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const r = (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload })).json();
    if (r.code !== 20000) throw new Error(`${url}: ${JSON.stringify(r)}`);
    return r.data;
  };
  const bulk = (await call('POST', '/project/addproject', { name: 'Bulk fleet' })).id as number;
  const typeId = ((await call('GET', '/devicetype/typeoptionslist')) as { id: number }[])[0]!.id;
  await t.database.db.execute(sql`
    insert into devices (sn, name, type_id, owner_path, project_id)
    select 'BULK-' || lpad(i::text, 5, '0'), 'Bulk ' || i, ${typeId}, '/1/', ${bulk} from generate_series(1, 10050) i`);

  // A firmware version for the external devices' screen to assign (the versions API is another
  // part of issue 36); an external URL, so no image file is needed.
  const version = (await t.database.db.execute(sql`
    insert into firmware_versions (name, software_version, url, owner_path)
    values ('Component module', '9.0.0', 'https://cdn.example.com/fw/9.0.0.bin', '/1/') returning id`)) as unknown as { rows: { id: number }[] };

  project.provide('apiBase', `http://127.0.0.1:${port}`);
  project.provide('adminPassword', ADMIN.password);
  project.provide('bulkProjectId', bulk);
  project.provide('externalVersionId', version.rows[0]!.id);
  return async () => {
    await t.close();
    await weather.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    apiBase: string;
    adminPassword: string;
    bulkProjectId: number;
    externalVersionId: number;
  }
}
