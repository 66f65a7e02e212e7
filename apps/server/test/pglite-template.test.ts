import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, PGLITE_SHARED_BUFFERS } from '../src/db/client.js';

/**
 * A new embedded DATA_DIR starts from the migrated template the compiled server ships
 * (decision 0036), unpacked by the server itself (db/unpack-template.ts). PGlite only: the
 * server-pg project has no data directory.
 */
describe.skipIf(process.env.TEST_DB === 'postgres')('a new embedded database from the template', () => {
  let dir: string;
  let template: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-unpack-'));
    // The run's migrated data directory (test/db-template.ts), gzipped as the build writes it.
    template = path.join(dir, 'template.tar.gz');
    fs.writeFileSync(template, gzipSync(fs.readFileSync(inject('dbTemplate'))));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const migrations = async (db: Awaited<ReturnType<typeof openDatabase>>['db']) =>
    Number(((await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as { rows: { n: number }[] }).rows[0]!.n);

  it('starts from the unpacked template with every migration, keeps its data on reopening, and uses small buffers', async () => {
    const dataDir = path.join(dir, 'fresh');
    const committed = fs.readdirSync(path.join(import.meta.dirname, '../src/db/migrations')).filter((f) => f.endsWith('.sql')).length;
    const first = await openDatabase({ dataDir, templateFile: template });
    try {
      expect(await migrations(first.db)).toBe(committed);
      await first.db.execute(sql`create table unpack_check as select 'kept' as v`);
      const shown = (await first.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
      expect(shown.rows[0]!.shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
    } finally {
      await first.close();
    }
    expect(fs.existsSync(path.join(dataDir, 'pglite.unpacking'))).toBe(false);
    // The second start finds a cluster: the template is not unpacked over it.
    const again = await openDatabase({ dataDir, templateFile: template });
    try {
      const kept = (await again.db.execute(sql`select v from unpack_check`)) as unknown as { rows: { v: string }[] };
      expect(kept.rows).toEqual([{ v: 'kept' }]);
    } finally {
      await again.close();
    }
  });

  it('refuses a cut archive and leaves no half cluster; the next start with a whole one works', async () => {
    const dataDir = path.join(dir, 'cut');
    const cut = path.join(dir, 'cut.tar.gz');
    const whole = fs.readFileSync(inject('dbTemplate'));
    fs.writeFileSync(cut, gzipSync(whole.subarray(0, Math.floor(whole.length / 2))));
    await expect(openDatabase({ dataDir, templateFile: cut })).rejects.toThrow(/ends inside a file|holds no cluster/);
    expect(fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(false);
    const db = await openDatabase({ dataDir, templateFile: template });
    try {
      expect(await migrations(db.db)).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  });
});
