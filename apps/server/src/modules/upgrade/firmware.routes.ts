import type { FastifyPluginAsync } from 'fastify';
import { ErrorCode, firmwareApi as api } from '@iot/contract';
import { AppError } from '../../lib/errors.js';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import { readUploadStream } from '../../plugins/upload.js';
import { basicCredentials, type HttpUplink } from '../../telemetry/transports/http.js';
import { serveFirmware } from './firmware.serve.js';
import type { FirmwareService } from './firmware.service.js';

/** §7 upgrade versions and their images (packages/contract/src/routes/firmware.ts, schemas in api/firmware.ts). */
export const firmwareRoutes: FastifyPluginAsync<{ firmware: FirmwareService; uplink: HttpUplink; maxBytes: number }> = async (
  app,
  { firmware, uplink, maxBytes },
) => {
  route(app, api.upload, async (req) => {
    const file = await readUploadStream(req, maxBytes);
    return ok(await firmware.upload(actorOf(req), file), 'file uploaded');
  });
  route(app, api.list, async (req) => ok(await firmware.list(authOf(req), req.query)));
  route(app, api.add, async (req) => ok({ id: await firmware.create(actorOf(req), req.body) }, 'version created'));
  route(app, api.edit, async (req) => {
    await firmware.edit(actorOf(req), req.body);
    return ok(null, 'version updated');
  });
  route(app, api.remove, async (req) => ok({ count: await firmware.remove(actorOf(req), req.query.id) }, 'version deleted'));

  // Devices download with their own credentials, as they post over HTTP (docs/PROTOCOL.md).
  route(
    app,
    api.download,
    async (req, reply) => {
      const credentials = basicCredentials(req.headers.authorization);
      const device = credentials && (await uplink.device(credentials.sn, credentials.secret));
      if (!device) {
        reply.header('www-authenticate', 'Basic realm="devices"');
        throw new AppError(
          ErrorCode.BAD_CREDENTIALS,
          credentials ? 'unknown device or wrong secret' : 'device credentials required: Basic base64(sn:secret)',
        );
      }
      const file = await firmware.download(device, req.params.versionId);
      const sent = serveFirmware(req, reply, file);
      if (reply.statusCode === 200 || reply.statusCode === 206) {
        uplink.downloaded(device, {
          firmware: req.params.versionId,
          softwareVersion: file.softwareVersion,
          status: reply.statusCode,
          ...(reply.statusCode === 206 && req.headers.range ? { range: req.headers.range.slice(0, 64) } : {}),
        });
      }
      return sent;
    },
    { config: { rateLimit: { max: 1200, timeWindow: '1 minute' } } },
  );
};
