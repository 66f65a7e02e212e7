import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ENDPOINTS, endpoints, type EndpointBody, type EndpointData, type EndpointQuery, type Page, type ProjectDto } from './index.js';
import * as plain from './plain.js';
import { routes, type Route } from './route.js';

const routeTables = Object.entries(plain).filter(([name]) => name.endsWith('Routes')) as [string, Record<string, Route>][];
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe('routes (the zod-free half of the endpoint table)', () => {
  it('are exactly the endpoints the server registers, with the same method, path, permission, audit and kind', () => {
    const declared = routeTables.flatMap(([, table]) => Object.values(table));
    expect(declared.map(key).sort()).toEqual(ENDPOINTS.map(key).sort());
    const byKey = new Map(ENDPOINTS.map((ep) => [key(ep), ep]));
    for (const r of declared) {
      const ep = byKey.get(key(r))!;
      expect({ permission: ep.permission, audit: ep.audit, kind: ep.kind }, key(r)).toEqual({ permission: r.permission, audit: r.audit, kind: r.kind });
    }
  });

  it('hold plain values only: nothing of a schema reaches the console', () => {
    const plainValue = (v: unknown): boolean =>
      ['string', 'boolean', 'undefined'].includes(typeof v) || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
    for (const [name, table] of routeTables) {
      for (const [route, r] of Object.entries(table)) {
        expect(Object.keys(r).sort(), `${name}.${route}`).toEqual(expect.arrayContaining(['kind', 'method', 'path', 'permission']));
        expect(Object.values(r).every(plainValue), `${name}.${route}`).toBe(true);
      }
    }
  });

  it('carry their schemas’ types, so the console’s calls are typed from the schemas', () => {
    expectTypeOf<EndpointData<typeof plain.projectRoutes.list>>().toEqualTypeOf<Page<ProjectDto>>();
    expectTypeOf<EndpointQuery<typeof plain.projectRoutes.list>>().toHaveProperty('name');
    expectTypeOf<EndpointBody<typeof plain.projectRoutes.list>>().toEqualTypeOf<undefined>();
  });

  it('and their schemas name the same routes: a name on one side only is refused', () => {
    const schemas = { a: { tags: [], data: z.null() }, b: { tags: [], data: z.null() } };
    const table = routes<typeof schemas>()({ a: { method: 'GET', path: '/a', permission: 'public' }, b: { method: 'GET', path: '/b', permission: 'public' } });
    expect(endpoints(table, schemas).b).toMatchObject({ method: 'GET', path: '/b', kind: 'json', data: schemas.b.data });
    const { b: _b, ...onlyA } = table;
    expect(() => endpoints(onlyA as typeof table, schemas)).toThrow(/b: declared in only one of routes\/ and api\//);
  });
});
