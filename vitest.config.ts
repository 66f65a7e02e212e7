import { defineConfig } from 'vitest/config';

/**
 * One runner for every workspace. The server suite runs on embedded PGlite, and a second time on
 * real PostgreSQL when TEST_DATABASE_URL is set (CI always sets it); each test file gets its own
 * database there.
 */
const serverProject = (name: string, db: 'pglite' | 'postgres') => ({
  test: {
    name,
    root: './apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB: db },
    // Migrates once per run; each file's database is a copy (test/db-template.ts).
    globalSetup: ['./test/db-template.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
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
