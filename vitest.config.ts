import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const serverRoot = './apps/server';
/**
 * The server's test files that reach a database: they use test/helpers.ts or open one themselves.
 * Only these run a second time on PostgreSQL; the others (decoders, parsers, a serializer) would
 * test the same code twice.
 */
const databaseFiles = ['src', 'test'].flatMap((dir) =>
  fs
    .readdirSync(path.join(serverRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `${dir}/${f}`)
    .filter((f) => /helpers\.js|openDatabase|TEST_DB/.test(fs.readFileSync(path.join(serverRoot, f), 'utf8'))),
);

/**
 * One runner for every workspace. The server suite runs on embedded PGlite, and its files that
 * reach a database a second time on real PostgreSQL when TEST_DATABASE_URL is set (CI always sets
 * it); each test file gets its own database there.
 */
const serverProject = (name: string, db: 'pglite' | 'postgres') => ({
  test: {
    name,
    root: serverRoot,
    include: db === 'pglite' ? ['src/**/*.test.ts', 'test/**/*.test.ts'] : databaseFiles,
    environment: 'node',
    env: { TEST_DB: db },
    // Migrates once per run; each file's database is a copy (test/db-template.ts).
    globalSetup: ['./test/db-template.ts'],
    // One module graph per worker instead of per file: each file imports the whole server (about
    // 2 s of CPU a file), and the server keeps no module-level state a file could leak (metrics
    // have a registry per app; nothing is mocked). Measured 0.59x the wall time on 12 files
    // (bench/README.md "CI time"). The jsdom screens stay isolated: no gain measured there.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default (cores - 1) runs one file at a time on 2 cores, while a server file mostly
    // waits on its database, sockets and timers: three at once measured 1.6-2x faster there
    // (bench/README.md "CI time").
    maxWorkers: Math.max(3, os.availableParallelism() - 1),
    // Files and the tests inside each file run in a random order, so a test that leans on an earlier
    // one fails. The banner prints the seed; `npx vitest run --sequence.seed=<seed>` replays an order.
    sequence: { shuffle: { files: true, tests: true } },
    projects: [
      {
        test: {
          name: 'contract',
          root: './packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.ts', 'build/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        // Screens rendered in jsdom against the real server (apps/server/test/web-server.ts).
        test: {
          name: 'web-components',
          root: './apps/web',
          include: ['src/**/*.test.tsx'],
          environment: 'jsdom',
          globalSetup: ['../server/test/web-server.ts'],
          setupFiles: ['./src/test/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The simulated devices (packages/sim-model) and the fleet simulator (apps/simulator).
        test: {
          name: 'simulator',
          root: '.',
          include: ['packages/sim-model/src/**/*.test.ts', 'apps/simulator/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      serverProject('server', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-pg', 'postgres')] : []),
    ],
  },
});
