import { buildTestApp } from './helpers.js';
import { fuzzShard } from './fuzz-routes.js';

// Every route's hostile input, dealt to three files that run side by side (fuzz-routes.ts).
fuzzShard(buildTestApp, 0);
