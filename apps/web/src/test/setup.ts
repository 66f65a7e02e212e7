/**
 * Setup of the component tests (vitest project `web-components`, jsdom): requests go to the real
 * server started by apps/server/test/web-server.ts, and jsdom gets the two browser APIs antd
 * needs that it lacks. Nothing here answers for the server.
 */
import { afterEach, inject, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// The server answers over real HTTP from a PGlite database on a shared machine: wait up to 10 s
// for what a user would see (not the library's 1 s).
configure({ asyncUtilTimeout: 10_000 });

const base = inject('apiBase');
const nodeFetch = globalThis.fetch;

/** Every request the page sent, as path and query (`/api/v1/device/list?page=1…`). */
export const sent: string[] = [];

// The console asks for `/api/v1/...` relative to its page; Node's fetch needs the server's
// address. jsdom's AbortSignal is not the one Node's fetch accepts, so the request timeout the
// http client adds is left out (no test waits ten minutes).
vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
  const url = new URL(String(input), base);
  sent.push(url.pathname + url.search);
  const { signal: _signal, ...rest } = init;
  return nodeFetch(url, rest);
});

vi.stubGlobal(
  'matchMedia',
  (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList,
);
vi.stubGlobal(
  'ResizeObserver',
  class {
    observe() {}
    unobserve() {}
    disconnect() {}
  },
);

afterEach(() => {
  cleanup();
  sent.length = 0;
});
