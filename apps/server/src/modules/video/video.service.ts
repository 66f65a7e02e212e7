import type { Db } from '../../db/client.js';
import { conflict, refuse } from '../../lib/errors.js';
import { ErrorCode } from '@iot/contract';
import { audit, type Actor } from '../audit/audit.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { VideoProvider } from './video.provider.js';

/** Video H5 addresses of devices with a camera (`devices.camera`), visible to the caller. */
export class VideoService {
  constructor(
    private readonly db: Db,
    private readonly devices: DeviceService,
    private readonly provider: VideoProvider,
  ) {}

  async h5Url(actor: Actor, deviceId: number) {
    const device = await this.devices.basic(actor, deviceId);
    if (!device.camera) throw conflict('noCamera');
    let answer;
    try {
      answer = await this.provider.h5Url({ sn: device.sn, name: device.name, cameraSerial: device.cameraSerial });
    } catch (err) {
      throw refuse(ErrorCode.CONFLICT, 'videoProviderFailed', { params: { message: (err as Error).message } });
    }
    await this.db.transaction((tx) => audit(tx, actor, { entityId: deviceId, name: device.name, summary: { sn: device.sn } }));
    return { url: answer.url, expiresAt: answer.expiresAt.toISOString(), provider: this.provider.name };
  }
}
