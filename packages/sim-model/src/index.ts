export * from './bmu.js';
export * from './rng.js';
export * from './route.js';
