import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';

/**
 * The server projects' global setup: the committed migrations applied once per run, and every
 * test file's database (helpers.ts `openTestDatabase`) copied from that instead of migrating from
 * scratch (on PGlite under load about 15 s a file, a copy about 2 s). PostgreSQL: a template
 * database named for this run, copied with CREATE DATABASE … TEMPLATE and dropped at teardown.
 * PGlite: a data directory migrated through `openDatabase`, dumped to a file that each file loads.
 * Tests of the migrations themselves (upgrade, crash) do not use it.
 */
export default async function setup(project: TestProject) {
  if (project.config.env?.TEST_DB === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = `iot_template_${crypto.randomBytes(6).toString('hex')}`;
    await adminQuery(base, `create database ${name}`);
    try {
      const url = new URL(base);
      url.pathname = `/${name}`;
      await (await openDatabase({ databaseUrl: url.toString() })).close();
    } catch (err) {
      await adminQuery(base, `drop database if exists ${name} with (force)`);
      throw err;
    }
    project.provide('dbTemplate', name);
    return async () => {
      await adminQuery(base, `drop database if exists ${name} with (force)`);
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-template-'));
  try {
    await (await openDatabase({ dataDir: dir })).close();
    // The same extensions openDatabase loads; the dump is the data directory as it stands.
    const client = await PGlite.create(path.join(dir, 'pglite'), { extensions: { pg_trgm } });
    const dump = await client.dumpDataDir('none');
    await client.close();
    const file = path.join(dir, 'template.tar');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    fs.rmSync(path.join(dir, 'pglite'), { recursive: true, force: true });
    project.provide('dbTemplate', file);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

async function adminQuery(url: string, text: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL: the template database's name; PGlite: the dumped data directory's file. */
    dbTemplate: string;
  }
}
