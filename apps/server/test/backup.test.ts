import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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
