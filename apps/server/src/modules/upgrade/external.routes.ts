import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, externalApi as api } from '@iot/contract';
import { basicCredentials } from '../../lib/basic-auth.js';
import { AppError } from '../../lib/errors.js';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import { serveFirmware } from './firmware.serve.js';
import type { ExternalService } from './external.service.js';

/** Per address: a production line's devices may share one (1,200 a minute, as the HTTP ingest). */
const DEVICE_RATE = { config: { rateLimit: { max: 1200, timeWindow: '1 minute' } } };

/** §7 Hardware and /external/* (packages/contract/src/routes/external.ts, schemas in api/external.ts). */
export const externalRoutes: FastifyPluginAsync<{ external: ExternalService }> = async (app, { external }) => {
  route(app, api.add, async (req) => ok(await external.add(actorOf(req), req.body)));
  route(app, api.list, async (req) => ok(await external.list(authOf(req), req.query)));
  route(app, api.logs, async (req) => ok(await external.logs(authOf(req), req.query)));
  route(app, api.remove, async (req) => ok(await external.remove(actorOf(req), req.query.id)));
  route(app, api.removeLogs, async (req) => ok(await external.removeLogs(actorOf(req), req.query)));
  route(app, api.upgrades, async (req) => ok(await external.list(authOf(req), req.query, true)));
  route(app, api.upgradeLogs, async (req) => ok(await external.logs(authOf(req), req.query, true)));
  route(app, api.assign, async (req) => ok(await external.assign(actorOf(req), req.body)));
  route(app, api.cancel, async (req) => ok(await external.cancel(actorOf(req), req.body.ids)));
  route(app, api.versionOptions, async (req) => ok(await external.versionOptions(authOf(req))));

  /** The external device of the request's Basic credentials; a refusal names no detail. */
  const deviceOf = async (req: FastifyRequest, reply: FastifyReply) => {
    const credentials = basicCredentials(req.headers.authorization);
    const device = credentials && (await external.authenticate(credentials.name, credentials.secret));
    if (!device) {
      reply.header('www-authenticate', 'Basic realm="external devices"');
      throw new AppError(
        ErrorCode.BAD_CREDENTIALS,
        credentials ? 'unknown device or wrong credential' : 'device credentials required: Basic base64(identifier:credential)',
      );
    }
    return device;
  };
  route(
    app,
    api.checkin,
    async (req, reply) => {
      const device = await deviceOf(req, reply);
      return ok(await external.checkin(device.id, req.body, { address: req.ip, origin: `${req.protocol}://${req.host}` }));
    },
    DEVICE_RATE,
  );
  route(
    app,
    api.firmware,
    async (req, reply) => {
      const device = await deviceOf(req, reply);
      const file = await external.firmware(device.id, req.params.versionId, { address: req.ip, range: req.headers.range });
      return serveFirmware(req, reply, file);
    },
    DEVICE_RATE,
  );
};
