import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@iot/contract';
import { API_PREFIX } from './auth.js';

/**
 * Serves the built console from `dist` with clean URLs: any GET that is not an API call or a
 * file falls back to index.html so client routes survive a reload.
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: { dist: string }) => {
  const index = path.join(opts.dist, 'index.html');
  const hasWeb = fs.existsSync(index);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: opts.dist,
      // Files are looked up per request, so a rebuilt console is served without a restart;
      // a missing file falls through to the not-found handler below.
      wildcard: true,
      index: false,
      // A folder ('/', '/assets/') is never listed: it falls through to the handler below, so
      // the console's address itself serves index.html.
      allowedPath: (pathname) => !pathname.endsWith('/'),
      maxAge: '1h',
      // The build's .br / .gz copies (apps/web/build/precompress.ts), sent as they are to a browser
      // that accepts them: 4.2 MB of text is 1.2 MB of brotli (docs/decisions/0044).
      preCompressed: true,
      setHeaders: (res, file) => {
        // Hashed assets never change; index.html must always be revalidated.
        if (file.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0]!;
    const isApi = url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith('/api/');
    if (!isApi && hasWeb && (req.method === 'GET' || req.method === 'HEAD')) {
      if (path.extname(url) === '') {
        return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
      }
    }
    return reply.status(404).send({
      code: ErrorCode.NOT_FOUND,
      message: `No route ${req.method} ${url}`,
      data: null,
    });
  });
});
