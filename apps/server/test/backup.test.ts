import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataDirInUse, dataDirOwnerFile, openDatabase } from '../src/db/client.js';

const root = path.resolve(import.meta.dirname, '../../..');
/** The server project runs it on PGlite, server-pg (TEST_DB=postgres) on TEST_DATABASE_URL. */
const mode = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * `npm run test:backup` in CI: the real server, backup, wipe, restore and compare
 * (scripts/backup-check.ts), one mode per project.
 */
describe('backup and restore', () => {
  it(`backs up, wipes, restores and finds everything again (${mode})`, async () => {
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/backup-check.ts', '--mode', mode], {
        cwd: root,
        env: process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('close', (c) => resolve({ code: c ?? 1, output: out }));
    });
    expect(code, output).toBe(0);
    expect(output).toContain('backup check passed');
  }, 300_000);
});

// PGlite's own file: nothing to run again on PostgreSQL.
describe.skipIf(mode === 'postgres')('the embedded database owner file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'owner-'));
  const write = (owner: object) => fs.writeFileSync(dataDirOwnerFile(dir), JSON.stringify(owner));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names a live process of this machine, or another machine; a dead process or this one is no owner', () => {
    const since = new Date().toISOString();
    expect(dataDirInUse(dir)).toBeUndefined();
    write({ pid: process.ppid, host: os.hostname(), since });
    expect(dataDirInUse(dir)).toMatchObject({ pid: process.ppid });
    write({ pid: 2 ** 22 + 12345, host: os.hostname(), since });
    expect(dataDirInUse(dir)).toBeUndefined();
    write({ pid: process.pid, host: os.hostname(), since });
    expect(dataDirInUse(dir)).toBeUndefined();
    write({ pid: 1, host: 'elsewhere.example', since });
    expect(dataDirInUse(dir)).toMatchObject({ host: 'elsewhere.example' });
  });

  it('is written while the server has the database open and removed on close', async () => {
    const database = await openDatabase({ dataDir: dir });
    expect(JSON.parse(fs.readFileSync(dataDirOwnerFile(dir), 'utf8'))).toMatchObject({ pid: process.pid, host: os.hostname() });
    await database.close();
    expect(fs.existsSync(dataDirOwnerFile(dir))).toBe(false);
  });
});
