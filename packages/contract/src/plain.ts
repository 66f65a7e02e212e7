/**
 * `@iot/contract/plain`: the contract without zod — routes (method, path, permission), codes,
 * enums, limits, rules, refusal reasons, permissions, live message types. The console imports its
 * run-time values only from here (ESLint refuses others in apps/web/src, and `vite build` fails
 * when zod reaches the bundle: apps/web/build/no-zod.ts), so the bundle users run is the code dev
 * and tests run. Schemas and the types derived from them come from `@iot/contract` as
 * `import type`. No module listed here may import zod or a schema module at run time:
 * apps/web/build/no-zod.test.ts bundles this whole entry and fails if zod is in it.
 */
export * from './audit.js';
export * from './codes.js';
export * from './device-params.js';
export * from './device-sheet.js';
export * from './devicetype-rules.js';
export * from './enums.js';
export * from './fence-rules.js';
export * from './upgrade-rules.js';
export * from './firmware-rules.js';
export * from './external-rules.js';
export * from './geo.js';
export * from './geo-distance.js';
export * from './limits.js';
export * from './live-channel.js';
export * from './menu-rules.js';
export * from './permissions.js';
export * from './refusals.js';
export * from './route.js';
export * from './routes/index.js';
export * from './store-rules.js';
export * from './track-rules.js';
