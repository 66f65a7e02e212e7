import { basicCredentials as basicAuth } from '../../lib/basic-auth.js';
import { ErrorCode, type UplinkResult } from '@iot/contract';
import { AppError, forbidden } from '../../lib/errors.js';
import type { CommandService } from '../commands.js';
import type { IngestDevice, IngestService } from '../ingest.service.js';
import { withoutValue } from '../replies.js';

/**
 * The HTTP transport of devices without MQTT (docs/PROTOCOL.md): `POST /api/v1/ingest/:kind`,
 * whose route (modules/devicedata/devicedata.routes.ts) reads the Basic credentials and calls
 * this. The answer carries the message's outcome and the commands waiting for the device.
 */
export class HttpUplink {
  constructor(
    private readonly ingest: IngestService,
    private readonly commands: CommandService,
  ) {}

  /**
   * The device these credentials name (every HTTP request of a device: the uplink, the firmware
   * download). Undefined: unknown device or wrong secret (the caller answers 60204 either way);
   * a refusal is in the device log.
   */
  async device(sn: string, secret: string): Promise<IngestDevice | undefined> {
    const auth = await this.ingest.authenticate(sn, secret);
    if ('reason' in auth) {
      await this.ingest.refused(sn, auth.reason, { via: 'http' });
      // Told only to a device that knows its secret.
      if (auth.reason === 'deviceDisabled') throw forbidden('deviceDisabled');
      return undefined;
    }
    return auth.device;
  }

  /** Undefined: unknown device or wrong secret (the caller answers 60204 either way). */
  async uplink(sn: string, secret: string, kind: string, body: unknown): Promise<UplinkResult | undefined> {
    const device = await this.device(sn, secret);
    if (!device) return undefined;
    const outcome = await this.ingest.uplink(device, kind, body as object, undefined, { via: 'http' });
    if (outcome.rejected[0]?.reason === 'rateLimited') {
      throw new AppError(ErrorCode.RATE_LIMITED, 'this device sends too many messages; retry later', { retryAfter: 1 });
    }
    return {
      accepted: outcome.accepted,
      rejected: outcome.rejected.map(withoutValue),
      // A polling device gets what waits for it in the answer.
      commands: await this.commands.takePending(device.id),
      serverTime: Date.now(),
    };
  }

  /**
   * A firmware image served to a device (GET /ingest/firmware/:versionId), in its device log as
   * a step of its upgrade. Not awaited by the download: the row waits for the writer's next batch.
   */
  downloaded(device: IngestDevice, detail: { firmware: number; softwareVersion: string; range?: string; status: number }): void {
    void this.ingest.note(device, 'command', { ...detail, via: 'http' }).catch(() => undefined);
  }

  /**
   * A request of an HTTP device that never reached the uplink handler (a body that is not JSON, of
   * another content type, empty, or refused by the input checks or the body schema), recorded as
   * MQTT records such a message: in the device log (`malformedJson`, `invalidMessage`), counted
   * against the device's rate. `body`: what was parsed, or undefined when the body could not be
   * read as JSON. Unknown credentials are logged as for any uplink; the caller answers the
   * request's own error either way, and no waiting command is handed over.
   */
  async refused(sn: string, secret: string, kind: string, body: unknown): Promise<void> {
    const auth = await this.ingest.authenticate(sn, secret);
    if ('reason' in auth) {
      await this.ingest.refused(sn, auth.reason, { via: 'http' });
      return;
    }
    // Nothing readable is no JSON: handed over as an empty payload, which decodes as malformedJson.
    // JSON that is not an object (null, a string, a number) goes back to its text, so that it
    // decodes as JSON of the wrong shape (invalidMessage).
    const payload =
      body === undefined || Buffer.isBuffer(body) ? '' : typeof body === 'object' && body !== null ? body : JSON.stringify(body);
    await this.ingest.uplink(auth.device, kind, payload, undefined, { via: 'http' });
  }
}

/** `Authorization: Basic base64(sn:secret)` of an HTTP device. */
export function basicCredentials(header: string | undefined): { sn: string; secret: string } | undefined {
  const c = basicAuth(header);
  return c && { sn: c.name, secret: c.secret };
}
