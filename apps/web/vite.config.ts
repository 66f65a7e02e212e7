import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { noZod } from './build/no-zod';
import { compileHint } from './build/compile-hints';
import { precompress } from './build/precompress';

/** The build's version in browser error reports (lib/error-report.ts): package version + commit. */
const APP_VERSION = (() => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  try {
    const commit = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    return commit ? `${version}+${commit}` : version;
  } catch {
    return version; // no git (a source archive)
  }
})();

/** Where `npm run dev` forwards API and live-channel calls: the server's PORT (8080). */
const API_TARGET = `http://localhost:${process.env.PORT ?? 8080}`;

const LOCALE_FILE = /[\\/]src[\\/]locales[\\/]([a-z]+)[\\/][^\\/]+\.json$/;
const localeChunk = (id: string): string | null => {
  const lang = LOCALE_FILE.exec(id)?.[1];
  return lang ? `locale-${lang}` : null;
};

// Vendor groups: each becomes its own long-cacheable chunk (vite 8 bundles with rolldown).
const vendorGroups = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 40 },
  // pinyin-pro is only imported on demand (Chinese menu search): its own chunk, loaded late.
  { name: 'vendor-pinyin', test: /node_modules[\\/]pinyin-pro[\\/]/, priority: 50 },
  // ECharts (and its renderer zrender) only with the pages that draw charts: loaded on demand.
  { name: 'vendor-echarts', test: /node_modules[\\/](echarts|zrender)[\\/]/, priority: 50 },
  // Leaflet (and the fleet map's clustering) only with a map; the bundled world outline (and the TopoJSON
  // decoder) in a chunk of its own, loaded only when no tile server is configured.
  { name: 'vendor-leaflet', test: /node_modules[\\/](leaflet|supercluster|kdbush)[\\/]/, priority: 50 },
  { name: 'vendor-world', test: /node_modules[\\/](world-atlas|topojson-client)[\\/]/, priority: 50 },
  { name: 'vendor-i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/, priority: 30 },
  // One chunk per UI language: only the user's language is downloaded (lib/i18n.ts).
  { name: (id: string) => localeChunk(id), priority: 60 },
];

/** The chunks loaded on demand, by name: left to V8's lazy compiling (build/compile-hints.ts). */
const ON_DEMAND = /^(vendor-(echarts|leaflet|world|pinyin)|hls)$/;

export default defineConfig({
  // noZod: the build fails if zod reaches the bundle (the console runs the contract's zod-free modules).
  // precompress: .br and .gz copies the server sends as they are (docs/decisions/0044).
  plugins: [react(), noZod(), precompress()],
  define: { 'import.meta.env.VITE_APP_VERSION': JSON.stringify(APP_VERSION) },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: vendorGroups },
        // The other chunks compiled eagerly, off the main thread (docs/decisions/0043).
        postBanner: compileHint(ON_DEMAND),
      },
    },
  },
});
