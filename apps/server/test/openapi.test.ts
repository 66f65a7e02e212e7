import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the OpenAPI document at /api/docs/json', () => {
  it('is a valid OpenAPI 3 document whose references all resolve', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
  });

  it('names the recursive menu trees as components', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['MenuNode', 'MenuOption', 'PermissionTreeNode']),
    );
    const tree = doc.paths['/api/v1/user/menutestlist'].get.responses['200'].content['application/json'].schema;
    expect(tree.properties.data.items).toEqual({ $ref: '#/components/schemas/MenuNode' });
    // Only referenced components are kept: no unused request twins of response schemas.
    expect(Object.keys(doc.components.schemas).filter((k: string) => k.endsWith('Input'))).toEqual([]);
  });
});
