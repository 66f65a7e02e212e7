import type { FastifyPluginAsync } from 'fastify';
import { clientErrorApi as api } from '@iot/contract';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { ClientErrorService } from './clienterror.service.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const clientErrorRoutes: FastifyPluginAsync<{ clientErrors: ClientErrorService }> = async (app, { clientErrors }) => {
  // Any page reports, signed in or not: at most 20 a minute from one address.
  route(
    app,
    api.report,
    async (req) => {
      await clientErrors.report(req.body, req.headers['user-agent']);
      return ok(null);
    },
    { config: { rateLimit: { max: 20, timeWindow: '1 minute' } } },
  );
  route(app, api.list, async (req) => ok(await clientErrors.list(req.query)));
  route(app, api.export, async (req, reply) => {
    const { lang, ...q } = req.query;
    const buf = await clientErrors.export(q, lang);
    return reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="browser-errors-${new Date().toISOString().slice(0, 10)}.xlsx"`)
      .send(buf);
  });
};
