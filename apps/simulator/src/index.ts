export * from './api.js';
export * from './fleet.js';
export { parseArgs, USAGE, type SimulatorArgs } from './args.js';
