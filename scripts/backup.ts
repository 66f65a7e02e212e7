/**
 * Backup and restore of the console's data (docs/OPERATIONS.md "Backup and restore"): the
 * database and the uploaded firmware images, in one .tar.gz. The mode follows the same environment
 * as the server: PostgreSQL with DATABASE_URL (pg_dump / pg_restore), else embedded PGlite in
 * DATA_DIR (its data directory dump). Secrets in the environment are not part of it.
 *
 *   npm run backup  -- [--out <file.tar.gz>] [--force]
 *   npm run restore -- <file.tar.gz> [--force]
 *
 * Exit codes: 0 done, 1 failed (the message says why), 2 usage.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.js';
import { dataDirInUse, dataDirOwnerFile } from '../apps/server/src/db/client.js';
import { firmwareDir } from '../apps/server/src/modules/upgrade/firmware.serve.js';
import { ArchiveWriter, entryBuffer, readArchive, saveEntry, type ArchiveEntry } from './backup-archive.js';

const FORMAT = 'iot-console-backup';
const VERSION = 1;
const MANIFEST = 'backup.json';
const CHECKSUMS = 'checksums.json';
/** The PGlite data directory, file by file. */
const PGLITE_PREFIX = 'database/pglite/';
const PGDUMP_ENTRY = 'database/postgres.pgdump';
const FIRMWARE_PREFIX = 'firmware/';

export type Engine = 'pglite' | 'postgres';

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  engine: Engine;
  createdAt: string;
  /** The migrations applied to the database (a newer console applies the rest at start). */
  migrations: number;
  /** The pg_dump file, or the folder the PGlite data directory's files are under. */
  database: string;
  firmware: { name: string; size: number }[];
}

/** A failure the operator can act on: printed without a stack trace. */
export class BackupError extends Error {}

const log = (msg: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${msg}`);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * libpq's connection for pg_dump / pg_restore: the URL without its password, which goes in
 * PGPASSWORD so that it never shows in the process list.
 */
function libpq(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env };
}

/** Runs a PostgreSQL client tool; its error output becomes the failure's message. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(new BackupError(err.code === 'ENOENT' ? `${cmd} is not installed (PostgreSQL client tools, same major version as the server or newer)` : `${cmd}: ${err.message}`)),
    );
    child.on('close', (code) => (code === 0 ? resolve() : reject(new BackupError(`${cmd} failed (exit ${code}):\n${stderr.trim()}`))));
  });
}

/** The uploaded images and their side files; a `.part` is an upload still (or never) arriving. */
async function firmwareFiles(dataDir: string): Promise<string[]> {
  const dir = firmwareDir(dataDir);
  if (!fs.existsSync(dir)) return [];
  const entries = await fsp.readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && !e.name.endsWith('.part'))
    .map((e) => e.name)
    .sort();
}

async function pgliteMigrations(db: PGlite): Promise<number> {
  const r = await db.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations').catch(() => ({ rows: [{ n: 0 }] }));
  return r.rows[0]?.n ?? 0;
}

function refuseIfOpen(dataDir: string) {
  const owner = dataDirInUse(dataDir);
  if (owner) {
    throw new BackupError(
      `the embedded database in ${dataDir} is open in process ${owner.pid} on ${owner.host} (since ${owner.since}): ` +
        'stop the console first (PGlite is one process\'s; a copy taken while it writes is not consistent). ' +
        `If no console runs there, remove ${dataDirOwnerFile(dataDir)}.`,
    );
  }
}

export interface BackupOptions {
  out: string;
  force: boolean;
  databaseUrl?: string;
  dataDir: string;
}

/** Writes the archive to `out` (through a temporary name: a failed backup leaves nothing). */
export async function backup(opts: BackupOptions): Promise<Manifest> {
  const started = Date.now();
  const out = path.resolve(opts.out);
  if (fs.existsSync(out) && !opts.force) throw new BackupError(`${out} exists: choose another --out, or add --force to replace it`);
  await fsp.mkdir(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  const dumpFile = `${out}.${process.pid}.pgdump.tmp`;
  const engine: Engine = opts.databaseUrl ? 'postgres' : 'pglite';
  let writer: ArchiveWriter | undefined;
  try {
    let migrations = 0;
    let dbSize = 0;
    const pgDir = path.join(opts.dataDir, 'pglite');
    if (opts.databaseUrl) {
      // pg_dump reads one snapshot: the console may keep running and writing meanwhile.
      const { dbname, env } = libpq(opts.databaseUrl);
      log('pg_dump: dumping the PostgreSQL database (the console may keep running)…');
      await run('pg_dump', ['--format=custom', '--compress=6', `--file=${dumpFile}`, `--dbname=${dbname}`], env);
      const client = new pg.Client({ connectionString: opts.databaseUrl });
      await client.connect();
      try {
        const r = await client.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations').catch(() => ({ rows: [{ n: 0 }] }));
        migrations = r.rows[0]?.n ?? 0;
      } finally {
        await client.end();
      }
      dbSize = (await fsp.stat(dumpFile)).size;
    } else {
      if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) throw new BackupError(`no embedded database in ${opts.dataDir} (DATA_DIR); set DATABASE_URL for PostgreSQL`);
      refuseIfOpen(opts.dataDir);
      // Opened once and shut down cleanly (a checkpoint first): the folder is then a consistent
      // cold copy of the cluster, streamed file by file. PGlite's dumpDataDir() builds the whole
      // tarball in memory: 1.8 GB of RSS for a 465 MB data directory (docs/OPERATIONS.md).
      log(`PGlite: closing the data directory cleanly (${pgDir})…`);
      const db = new PGlite(pgDir, { extensions: { pg_trgm } });
      try {
        await db.waitReady;
        migrations = await pgliteMigrations(db);
        await db.exec('checkpoint');
      } finally {
        await db.close();
      }
    }
    // Images after the database: every version the dump names already has its file (an image
    // uploaded since is an extra file, removed by the next upload's sweep).
    const names = await firmwareFiles(opts.dataDir);
    const firmware = await Promise.all(names.map(async (name) => ({ name, size: (await fsp.stat(path.join(firmwareDir(opts.dataDir), name))).size })));
    const manifest: Manifest = {
      format: FORMAT,
      version: VERSION,
      engine,
      createdAt: new Date().toISOString(),
      migrations,
      database: opts.databaseUrl ? PGDUMP_ENTRY : PGLITE_PREFIX,
      firmware,
    };

    writer = new ArchiveWriter(tmp);
    await writer.addBuffer(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2)));
    const sums: Record<string, string> = {};
    if (opts.databaseUrl) sums[PGDUMP_ENTRY] = (await writer.addFile(PGDUMP_ENTRY, dumpFile)).sha256;
    else {
      for (const entry of await fsp.readdir(pgDir, { recursive: true, withFileTypes: true })) {
        const abs = path.join(entry.parentPath, entry.name);
        const name = PGLITE_PREFIX + path.relative(pgDir, abs).split(path.sep).join('/');
        if (entry.isDirectory()) await writer.addDir(name);
        else if (entry.isFile() && entry.name !== 'postmaster.pid') {
          const f = await writer.addFile(name, abs);
          sums[name] = f.sha256;
          dbSize += f.size;
        }
      }
    }
    for (const f of firmware) {
      const src = path.join(firmwareDir(opts.dataDir), f.name);
      sums[FIRMWARE_PREFIX + f.name] = (await writer.addFile(FIRMWARE_PREFIX + f.name, src)).sha256;
    }
    await writer.addBuffer(CHECKSUMS, Buffer.from(JSON.stringify(sums, null, 2)));
    await writer.close();
    writer = undefined;
    await fsp.rename(tmp, out);
    const size = (await fsp.stat(out)).size;
    log(
      `backup written: ${out} (${mb(size)}; ${engine} database of ${mb(dbSize)}, ${firmware.filter((f) => !f.name.endsWith('.json')).length} firmware image(s)) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return manifest;
  } catch (err) {
    writer?.abort();
    throw err;
  } finally {
    await fsp.rm(tmp, { force: true });
    await fsp.rm(dumpFile, { force: true });
  }
}

export interface RestoreOptions {
  file: string;
  force: boolean;
  databaseUrl?: string;
  dataDir: string;
}

async function isEmptyDir(dir: string): Promise<boolean> {
  if (!fs.existsSync(dir)) return true;
  return (await fsp.readdir(dir)).length === 0;
}

/** Reads the manifest (the archive's first entry) and checks that it fits this installation. */
async function readManifest(entry: ArchiveEntry | undefined, engine: Engine): Promise<Manifest> {
  if (!entry || entry.name !== MANIFEST) throw new BackupError('not a console backup (no backup.json first)');
  const m = JSON.parse((await entryBuffer(entry)).toString('utf8')) as Manifest;
  if (m.format !== FORMAT) throw new BackupError('not a console backup (unknown format)');
  if (m.version > VERSION) throw new BackupError(`backup format ${m.version} is newer than this console reads (${VERSION}): restore with a newer console`);
  if (m.engine !== engine) {
    throw new BackupError(
      m.engine === 'pglite'
        ? 'this backup is of an embedded (PGlite) database: restore it without DATABASE_URL, into DATA_DIR'
        : 'this backup is of a PostgreSQL database: restore it with DATABASE_URL set',
    );
  }
  return m;
}

/** Connections to the target database other than ours: console instances still running. */
async function otherSessions(databaseUrl: string): Promise<{ tables: number; sessions: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (err) {
    throw new BackupError(`cannot connect to DATABASE_URL: ${(err as Error).message} (create the database first: createdb <name>)`);
  }
  try {
    const s = await client.query<{ who: string }>(
      `select coalesce(nullif(application_name, ''), 'pid ' || pid) || ' from ' || coalesce(client_addr::text, 'local') as who
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    const t = await client.query<{ n: number }>(`select count(*)::int as n from pg_tables where schemaname = 'public'`);
    return { tables: t.rows[0]?.n ?? 0, sessions: s.rows.map((r) => r.who) };
  } finally {
    await client.end();
  }
}

/**
 * Restores `file` into the database and DATA_DIR of this environment. Everything is unpacked into
 * a staging folder and its checksums verified before anything in place changes.
 */
export async function restore(opts: RestoreOptions): Promise<Manifest> {
  const started = Date.now();
  const file = path.resolve(opts.file);
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist`);
  const engine: Engine = opts.databaseUrl ? 'postgres' : 'pglite';
  const dataDir = opts.dataDir;
  const fwDir = firmwareDir(dataDir);
  const pgDir = path.join(dataDir, 'pglite');

  // Refusals first, before anything is unpacked.
  if (engine === 'pglite') {
    refuseIfOpen(dataDir);
    if (!opts.force && !(await isEmptyDir(pgDir))) throw new BackupError(`${pgDir} holds a database: restore into an empty DATA_DIR, or add --force to set it aside and replace it`);
  } else {
    const target = await otherSessions(opts.databaseUrl!);
    if (target.sessions.length > 0 && !opts.force) {
      throw new BackupError(`the database has other connections (${target.sessions.join(', ')}): stop every console instance first, or add --force`);
    }
    if (target.tables > 0 && !opts.force) throw new BackupError('the database is not empty: restore into a new database (createdb), or add --force to replace its contents');
  }
  if (!opts.force && !(await isEmptyDir(fwDir))) throw new BackupError(`${fwDir} holds files: restore into an empty DATA_DIR, or add --force to set them aside and replace them`);

  await fsp.mkdir(dataDir, { recursive: true });
  const stage = path.join(dataDir, `.restore-${process.pid}`);
  await fsp.rm(stage, { recursive: true, force: true });
  await fsp.mkdir(path.join(stage, 'firmware'), { recursive: true });
  try {
    log(`reading ${file}…`);
    const entries = readArchive(fs.createReadStream(file));
    const manifest = await readManifest((await entries.next()).value || undefined, engine);
    const sums = new Map<string, string>();
    let checksums: Record<string, string> | undefined;
    const dbFile = path.join(stage, 'database.pgdump');
    const staged = path.join(stage, 'pglite');
    for await (const entry of entries) {
      if (entry.name === CHECKSUMS) checksums = JSON.parse((await entryBuffer(entry)).toString('utf8')) as Record<string, string>;
      else if (engine === 'postgres' && entry.name === PGDUMP_ENTRY) sums.set(entry.name, await saveEntry(entry, dbFile));
      else if (engine === 'pglite' && entry.name.startsWith(PGLITE_PREFIX)) {
        const rel = entry.name.slice(PGLITE_PREFIX.length).replace(/\/$/, '');
        // Only paths inside the data directory: never `..`, never absolute.
        if (rel.split('/').some((part) => part === '..' || part === '') && rel !== '') throw new BackupError(`unexpected path in the backup: ${entry.name}`);
        const dest = path.join(staged, ...rel.split('/'));
        if (entry.type === 'dir') await fsp.mkdir(dest, { recursive: true });
        else {
          await fsp.mkdir(path.dirname(dest), { recursive: true });
          sums.set(entry.name, await saveEntry(entry, dest));
        }
      }
      else if (entry.name.startsWith(FIRMWARE_PREFIX)) {
        const name = entry.name.slice(FIRMWARE_PREFIX.length);
        if (!name || name !== path.basename(name) || name.startsWith('.')) throw new BackupError(`unexpected file in the backup: ${entry.name}`);
        sums.set(entry.name, await saveEntry(entry, path.join(stage, 'firmware', name)));
      } else throw new BackupError(`unexpected file in the backup: ${entry.name}`);
    }
    if (!checksums) throw new BackupError('the backup is incomplete (no checksums.json): it was cut off or not written to the end');
    for (const [name, sum] of Object.entries(checksums)) {
      if (sums.get(name) !== sum) throw new BackupError(`the backup is damaged: ${name} ${sums.has(name) ? 'does not match its checksum' : 'is missing'}`);
    }
    log(`archive of ${manifest.createdAt} checked (${manifest.engine}, ${manifest.firmware.length} firmware file(s))`);

    // Whatever --force replaces is moved aside, never deleted: the operator removes it once satisfied.
    const aside = path.join(dataDir, `replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    const setAside = async (p: string) => {
      if (await isEmptyDir(p)) return fsp.rm(p, { recursive: true, force: true });
      await fsp.mkdir(aside, { recursive: true });
      await fsp.rename(p, path.join(aside, path.basename(p)));
      log(`moved the previous ${path.basename(p)} to ${aside}`);
    };

    if (engine === 'pglite') {
      // Opened once where it was unpacked: a data directory PGlite cannot start is never put in place.
      log('PGlite: checking the restored data directory…');
      const db = new PGlite(staged, { extensions: { pg_trgm } });
      try {
        await db.waitReady;
        await db.query('select 1');
      } finally {
        await db.close();
      }
      await setAside(pgDir);
      await fsp.rename(staged, pgDir);
    } else {
      const { dbname, env } = libpq(opts.databaseUrl!);
      log('pg_restore: restoring the PostgreSQL database…');
      // One transaction: a failed restore leaves the database as it was. No owners or grants: the
      // new machine's role (the one in DATABASE_URL) owns what it restores.
      await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${dbname}`, dbFile], env);
    }
    await setAside(fwDir);
    await fsp.rename(path.join(stage, 'firmware'), fwDir);
    log(`restored ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s; start the console as usual (it applies newer migrations itself)`);
    return manifest;
  } finally {
    await fsp.rm(stage, { recursive: true, force: true });
  }
}

function usage(): never {
  console.error(
    'usage:\n  npm run backup -- [--out <file.tar.gz>] [--force]\n  npm run restore -- <file.tar.gz> [--force]\n' +
      'The database is PostgreSQL with DATABASE_URL, else the embedded one in DATA_DIR (default ./data).',
  );
  process.exit(2);
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const force = rest.includes('--force');
  const args = rest.filter((a) => a !== '--force');
  const config = loadConfig();
  const target = { databaseUrl: config.databaseUrl, dataDir: config.dataDir, force };
  if (command === 'backup') {
    let out: string | undefined;
    if (args[0] === '--out' && args[1] && args.length === 2) out = args[1];
    else if (args.length > 0) usage();
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
    await backup({ ...target, out: out ?? `iot-console-backup-${config.databaseUrl ? 'postgres' : 'pglite'}-${stamp}.tar.gz` });
  } else if (command === 'restore') {
    if (args.length !== 1 || args[0]!.startsWith('--')) usage();
    await restore({ ...target, file: args[0]! });
  } else usage();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(`${process.argv[2] ?? 'backup'} failed: ${err instanceof BackupError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  });
}
