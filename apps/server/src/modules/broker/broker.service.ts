import { DOWNLINK_KIND, REPLY_KIND, UPLINK_KINDS, isOwnClientId, parseDeviceTopic } from '@iot/contract';
import { sameSecret } from '../../lib/tokens.js';
import type { IngestService } from '../../telemetry/ingest.service.js';

/** What a client asks the broker for: publish (write), subscribe, or receive a message (read). */
export type BrokerAccess = 'publish' | 'subscribe' | 'read' | 'other';

export type LoginResult = { allow: true; superuser: boolean } | { allow: false };

export interface BrokerAuthOptions {
  /** BROKER_AUTH_SECRET: what the broker must send; unset, every call is refused. */
  secret?: string;
  /** The console's own login at the broker (MQTT_USERNAME / MQTT_PASSWORD): a superuser. */
  serverUsername?: string;
  serverPassword?: string;
}

/**
 * Device authentication and authorization for an external broker (EMQX HTTP auth/authz,
 * mosquitto-go-auth's HTTP backend): the same rules as the embedded broker. A device logs in with
 * its SN and secret, publishes only to `dev/<its sn>/<uplink kind>` and subscribes only to
 * `dev/<its sn>/cmd`; the console's own client (MQTT_USERNAME) is a superuser. Refused logins and
 * foreign topics are written to the device log, as with the embedded broker.
 */
export class BrokerAuthService {
  constructor(
    private readonly ingest: IngestService,
    private readonly opts: BrokerAuthOptions,
  ) {}

  get enabled(): boolean {
    return Boolean(this.opts.secret);
  }

  /** The shared secret the broker sent (header or query) is the configured one. */
  secretOk(given: string | undefined): boolean {
    return sameSecret(given, this.opts.secret);
  }

  isServer(username: string): boolean {
    return Boolean(this.opts.serverUsername) && username === this.opts.serverUsername;
  }

  async login(username: string, password: string, clientId: string): Promise<LoginResult> {
    if (this.isServer(username)) {
      // Never falls through to the device check: a device whose SN is the server's username
      // must not become a superuser with its own secret.
      return sameSecret(password, this.opts.serverPassword) ? { allow: true, superuser: true } : { allow: false };
    }
    if (!username || !password) {
      if (username) await this.ingest.refused(username, 'badCredentials', { clientId, via: 'broker' });
      return { allow: false };
    }
    const r = await this.ingest.authenticate(username, password);
    if ('reason' in r) {
      await this.ingest.refused(username, r.reason === 'unknownDevice' || r.reason === 'deviceDisabled' ? r.reason : 'badCredentials', {
        clientId,
        via: 'broker',
      });
      return { allow: false };
    }
    // The client id is bound to the SN, as on the embedded broker: a device cannot take over
    // another's session (the broker must send `clientid`, docs/OPERATIONS.md).
    if (!isOwnClientId(username, clientId)) {
      await this.ingest.refused(username, 'foreignClientId', { clientId, via: 'broker' });
      return { allow: false };
    }
    return { allow: true, superuser: false };
  }

  superuser(username: string): boolean {
    return this.isServer(username);
  }

  /**
   * May `username` (connected as `clientId`) do `access` on `topic`? Exact topics only: no
   * wildcards for devices.
   */
  async may(username: string, topic: string, access: BrokerAccess, clientId: string): Promise<boolean> {
    if (this.isServer(username)) return true;
    if (!username || access === 'other' || !isOwnClientId(username, clientId)) return false;
    const device = await this.ingest.deviceOf(username);
    if (!device) return false;
    const t = parseDeviceTopic(topic);
    const own = t !== undefined && t.sn === device.sn;
    if (access === 'publish') {
      if (own && (UPLINK_KINDS as readonly string[]).includes(t.kind)) return true;
      await this.ingest.refused(device.sn, own ? 'unknownKind' : 'foreignTopic', { topic, via: 'broker' });
      return false;
    }
    return own && (t.kind === DOWNLINK_KIND || t.kind === REPLY_KIND);
  }
}

/** mosquitto-go-auth's `acc`: 1 read, 2 write, 3 read+write, 4 subscribe. */
export function accessOfAcc(acc: number): BrokerAccess {
  return acc === 1 ? 'read' : acc === 2 ? 'publish' : acc === 4 ? 'subscribe' : 'other';
}

/** EMQX's `${action}`: publish or subscribe (older versions: pub / sub). */
export function accessOfAction(action: string): BrokerAccess {
  const a = action.toLowerCase();
  return a === 'publish' || a === 'pub' ? 'publish' : a === 'subscribe' || a === 'sub' ? 'subscribe' : 'other';
}
