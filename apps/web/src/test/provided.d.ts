import 'vitest';

/** What apps/server/test/web-server.ts provides to the component tests (`inject(name)`). */
declare module 'vitest' {
  export interface ProvidedContext {
    apiBase: string;
    adminPassword: string;
    bulkProjectId: number;
    externalVersionId: number;
  }
}
