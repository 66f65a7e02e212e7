import type { Plugin } from 'vite';

/**
 * Fails `vite build` when zod reaches the browser bundle. The console takes its run-time values
 * from the contract's zod-free modules (`@iot/contract/plain`; ESLint refuses other value imports
 * in src/), so the bundle users run is the code dev and tests run, without zod and the schemas
 * nobody parses in the browser (docs/decisions/0012).
 */
const ZOD = /[\\/]node_modules[\\/]zod[\\/]/;

interface Output {
  type: string;
  fileName: string;
  modules?: Record<string, { renderedLength: number }>;
}

/** The zod modules that left code in the bundle's chunks, as `chunk: module` lines. */
export function zodIn(bundle: Record<string, Output>): string[] {
  const found: string[] = [];
  for (const out of Object.values(bundle)) {
    if (out.type !== 'chunk') continue;
    for (const [id, mod] of Object.entries(out.modules ?? {})) {
      if (ZOD.test(id) && mod.renderedLength > 0) found.push(`${out.fileName}: ${id.slice(id.search(ZOD) + 1)}`);
    }
  }
  return found;
}

export function noZod(): Plugin {
  return {
    name: 'no-zod-in-bundle',
    apply: 'build',
    generateBundle(_options, bundle) {
      const found = zodIn(bundle);
      if (found.length > 0) {
        this.error(
          `zod is in the web bundle (${found.length} modules, e.g. ${found.slice(0, 3).join(', ')}): ` +
            "apps/web/src must take run-time values from '@iot/contract/plain' and import schemas with `import type`",
        );
      }
    },
  };
}
