import crypto from 'node:crypto';

/**
 * A video provider: turns a device's camera into a playable H5 page address for a while
 * (§7 POST /getVideoH5Url). Cloud camera platforms (EZVIZ, Imou, Hikvision ISC…) answer such a
 * URL for a device serial and a short-lived token. VIDEO_PROVIDER picks one: the built-in
 * simulated provider (the default) answers the console's own simulated player page; `ezviz`
 * the EZVIZ open platform's live address (video.ezviz.ts).
 */
export interface VideoProvider {
  readonly name: string;
  /** `cameraSerial`: the device's camera on the platform (`serial` or `serial:channel`). */
  h5Url(device: { sn: string; name: string; cameraSerial: string }): Promise<{ url: string; expiresAt: Date }>;
}

/** Lifetime of a simulated H5 address. */
const TTL_MS = 10 * 60_000;

export class SimulatedVideo implements VideoProvider {
  readonly name = 'simulated';
  private readonly secret = crypto.randomBytes(32);

  async h5Url(device: { sn: string; name: string }) {
    const expiresAt = new Date(Date.now() + TTL_MS);
    const token = crypto.createHmac('sha256', this.secret).update(`${device.sn}:${expiresAt.getTime()}`).digest('base64url').slice(0, 22);
    const params = new URLSearchParams({ sn: device.sn, name: device.name, expires: String(expiresAt.getTime()), token });
    // The console's simulated player (apps/web/public/sim-video.html), same origin.
    return { url: `/sim-video.html?${params}`, expiresAt };
  }
}
