export * from './rbac.js';
export * from './users.js';
export * from './sessions.js';
export * from './site.js';
export * from './audit.js';
export * from './devicetypes.js';
export * from './projects.js';
export * from './telemetry.js';
