import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { buildTestApp, type TestApp } from './helpers.js';

/** The img-src directive of an answer's Content-Security-Policy, split into its sources. */
const imgSrc = (headers: Record<string, unknown>) => {
  const directive = String(headers['content-security-policy'])
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('img-src '));
  return directive?.split(/\s+/).slice(1) ?? [];
};

describe('MAP_TILE_URL', () => {
  it('takes an http(s) template or a same-origin path and derives the origin images may come from', () => {
    expect(loadConfig({})).toMatchObject({ mapTileUrl: undefined, mapTileOrigin: undefined, mapTileAttribution: '' });
    expect(loadConfig({ MAP_TILE_URL: 'https://tiles.example.com:8443/osm/{z}/{x}/{y}.png?key=k' })).toMatchObject({
      mapTileUrl: 'https://tiles.example.com:8443/osm/{z}/{x}/{y}.png?key=k',
      mapTileOrigin: 'https://tiles.example.com:8443',
    });
    expect(loadConfig({ MAP_TILE_URL: 'https://{s}.Tile.Example.com/{z}/{x}/{y}{r}.png' }).mapTileOrigin).toBe(
      'https://*.tile.example.com',
    );
    expect(loadConfig({ MAP_TILE_URL: '/tiles/{z}/{x}/{y}.png' })).toMatchObject({
      mapTileUrl: '/tiles/{z}/{x}/{y}.png',
      mapTileOrigin: undefined,
    });
    expect(loadConfig({}).mapTileDatum).toBe('wgs84');
    expect(loadConfig({ MAP_TILE_DATUM: 'gcj02' }).mapTileDatum).toBe('gcj02');
    expect(() => loadConfig({ MAP_TILE_DATUM: 'bd09' })).toThrow(/MAP_TILE_DATUM/);
    for (const bad of [
      'https://tiles.example.com/tile.png', // no {z}/{x}/{y}
      'ftp://tiles.example.com/{z}/{x}/{y}.png',
      '//tiles.example.com/{z}/{x}/{y}.png',
      'https://tile-{s}.example.com/{z}/{x}/{y}.png', // {s} not a whole first label: no CSP source for it
      'https://user:pw@tiles.example.com/{z}/{x}/{y}.png',
      'https://tiles.example.com/{z}/{x}/{y}.png https://evil.example',
    ]) {
      expect(() => loadConfig({ MAP_TILE_URL: bad }), bad).toThrow(/MAP_TILE_URL/);
    }
  });
});

describe('map settings in GET /config and the Content-Security-Policy', () => {
  let plain: TestApp;
  let tiled: TestApp;
  beforeAll(async () => {
    plain = await buildTestApp();
    tiled = await buildTestApp({
      MAP_TILE_URL: 'https://{s}.tiles.example.com/{z}/{x}/{y}.png',
      MAP_TILE_ATTRIBUTION: '© Example Maps',
      MAP_TILE_DATUM: 'gcj02',
    });
  });
  afterAll(async () => {
    await plain?.close();
    await tiled?.close();
  });

  it('without MAP_TILE_URL: no tile server in /config, and images only from the server and data:', async () => {
    const res = await plain.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(res.json().data.map).toEqual({ tileUrl: null, tileAttribution: '', tileDatum: 'wgs84' });
    // The site configuration is still all there.
    expect(res.json().data).toHaveProperty('title');
    expect(imgSrc(res.headers)).toEqual(["'self'", 'data:']);
  });

  it('with MAP_TILE_URL: /config names the tiles and the CSP allows images from their origin only', async () => {
    const res = await tiled.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(res.json().data.map).toEqual({
      tileUrl: 'https://{s}.tiles.example.com/{z}/{x}/{y}.png',
      tileAttribution: '© Example Maps',
      tileDatum: 'gcj02',
    });
    for (const url of ['/api/v1/config', '/login', '/project/info?id=1']) {
      const page = await tiled.app.inject({ method: 'GET', url });
      expect(imgSrc(page.headers), url).toEqual(["'self'", 'data:', 'https://*.tiles.example.com']);
      // Nothing else is widened: scripts and connections stay with the server.
      expect(String(page.headers['content-security-policy']), url).toContain("script-src 'self';");
      expect(String(page.headers['content-security-policy']), url).toContain("connect-src 'self';");
    }
  });
});
