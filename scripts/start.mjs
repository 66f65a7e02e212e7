#!/usr/bin/env node
// `npm start`: builds the web console and compiles the server when their sources are newer than
// the last build, then runs the compiled server, which serves the console and the API on PORT (8080).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contract/src'];

function newest(p) {
  const abs = path.join(root, p);
  if (!fs.existsSync(abs)) return 0;
  const st = fs.statSync(abs);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(abs).map((f) => newest(path.join(p, f))));
}

const built = fs.existsSync(dist) ? fs.statSync(dist).mtimeMs : 0;
if (built < Math.max(...sources.map(newest))) {
  console.log('Building the web console…');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// The server runs compiled (scripts/build-server.mjs), rebuilt when its sources or the installed
// packages are newer than the build.
const serverBuild = path.join(root, 'apps/server/dist/main.js');
const serverSources = ['apps/server/src', 'packages/contract/src', 'packages/sim-model/src', 'package-lock.json'];
const serverBuilt = fs.existsSync(serverBuild) ? fs.statSync(serverBuild).mtimeMs : 0;
if (serverBuilt < Math.max(...serverSources.map(newest))) {
  console.log('Compiling the server…');
  const r = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const server = spawn(process.execPath, ['--enable-source-maps', serverBuild], {
  cwd: root,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
