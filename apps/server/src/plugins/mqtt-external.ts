import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { TOPIC_ROOT, UPLINK_KINDS, parseDeviceTopic } from '@iot/contract';
import type { Config } from '../config.js';
import type { IngestService } from '../ingest/ingest.service.js';

export interface ExternalBrokerOptions {
  /** `mqtt://`, `mqtts://`, `ws://`, `wss://` (credentials in it are used unless `username` is given). */
  url: string;
  username?: string;
  password?: string;
  /** Stable per instance: the broker keeps this client's session (and its share of messages) across restarts. */
  clientId: string;
  /** Shared-subscription group: the instances of one console split the device messages. */
  shareGroup: string;
  /** Seconds the broker keeps the session while this instance is away (MQTT 5; 3.1.1 brokers decide themselves). */
  sessionExpiry: number;
  /**
   * Messages taken from the broker and not yet stored; past it the client stops reading until some
   * are committed, so the broker holds the rest. Also sent as the MQTT 5 Receive Maximum.
   */
  maxInFlight?: number;
  /** start() waits this long for the first connection, then resolves while the client keeps trying. */
  connectWaitMs?: number;
  reconnectPeriodMs?: number;
  /** Protocol to speak; by default MQTT 5, falling back to 3.1.1 when the broker refuses 5. */
  protocolVersion?: 4 | 5;
}

export interface ExternalBroker {
  /** The broker URL without credentials (banner, logs). */
  url: string;
  /** The subscribed filters, `$share/<group>/dev/+/<kind>`. */
  topics: string[];
  /** The protocol spoken (5, or 4 = 3.1.1). */
  readonly protocolVersion: 4 | 5;
  /** True when acknowledgements wait for the commit without holding up the next message. */
  readonly pipelined: boolean;
  readonly client: MqttClient;
  /** Stops taking messages, stores and acknowledges those taken, then disconnects (the session stays). */
  close(): Promise<void>;
}

/** The options main.ts and the tests derive from the configuration. */
export function externalBrokerOptions(config: Config): ExternalBrokerOptions {
  if (!config.mqttUrl) throw new Error('MQTT_URL is not set');
  return {
    url: config.mqttUrl,
    username: config.mqttUsername,
    password: config.mqttPassword,
    clientId: config.mqttClientId,
    shareGroup: config.mqttShareGroup,
    sessionExpiry: config.mqttSessionExpiry,
  };
}

/** `$share/<group>/dev/+/<kind>` for every uplink kind. */
export function sharedTopics(group: string): string[] {
  return UPLINK_KINDS.map((kind) => `$share/${group}/${TOPIC_ROOT}/+/${kind}`);
}

export function redactUrl(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.toString().replace(/\/$/, '');
}

/** CONNACK codes that mean "not this protocol version" (3.1.1: 1; MQTT 5: 0x84). */
const UNSUPPORTED_PROTOCOL = new Set([1, 0x84]);
/** CONNACK codes of a refused login (3.1.1: 4, 5; MQTT 5: 0x86, 0x87): a configuration error. */
const REFUSED_LOGIN = new Set([4, 5, 0x86, 0x87]);

/** What mqtt.js keeps private but the pipelined acknowledgement needs. */
interface ClientInternals {
  _sendPacket(packet: { cmd: 'puback'; messageId: number; reasonCode?: number }, cb?: (err?: Error) => void): void;
}

/** One network connection: acknowledgements go out in order, and only on the connection the message came on. */
interface Link {
  stream: unknown;
  tail: Promise<void>;
  broken: boolean;
}

/** Passed to mqtt.js's handleMessage callback: go on with the next packet, send no PUBACK (yet). */
const NO_ACK_NOW = Object.assign(new Error('acknowledged after the commit'), { code: 'IOT_DEFERRED_ACK' });

/**
 * The console as a client of an external broker (MQTT_URL) instead of the embedded one: it
 * subscribes to `$share/<group>/dev/+/<kind>` with QoS 1 under a stable client id and a persistent
 * session, so several instances split the devices' messages and nothing is lost while one
 * restarts. Every message goes through the ingestion path for the device its topic names; a QoS 1
 * message is acknowledged (PUBACK) only after its batch is committed, so the broker delivers it
 * again if the process dies first (at least once).
 *
 * mqtt.js reads one packet at a time and waits for `handleMessage`'s callback before the next; a
 * callback after the commit would hold every message for a whole batch (~20 messages a second).
 * So the callback is called at once without an acknowledgement and the PUBACK is sent after the
 * commit, in the order the messages came (pipelined), with at most `maxInFlight` messages open.
 * Should mqtt.js change its internals, the client falls back to one message at a time.
 */
export async function startExternalBroker(
  ingest: IngestService,
  log: FastifyBaseLogger,
  opts: ExternalBrokerOptions,
): Promise<ExternalBroker> {
  const url = redactUrl(opts.url);
  const topics = sharedTopics(opts.shareGroup);
  const maxInFlight = opts.maxInFlight ?? 1000;
  const inFlight = new Set<Promise<unknown>>();
  const waitingForRoom: (() => void)[] = [];
  const unknownLogged = new Map<string, number>();
  let version: 4 | 5 = opts.protocolVersion ?? 5;
  let client!: MqttClient;
  let pipelined = false;
  let link: Link | undefined;
  let closing = false;
  let everConnected = false;
  let lostLogged = false;

  const track = (p: Promise<unknown>) => {
    inFlight.add(p);
    void p.finally(() => {
      inFlight.delete(p);
      if (inFlight.size < maxInFlight) waitingForRoom.shift()?.();
    });
  };

  /** Unknown SNs are logged once a minute each (the map is bounded). */
  const logUnknown = (sn: string) => {
    const now = Date.now();
    const last = unknownLogged.get(sn);
    if (last !== undefined && now - last < 60_000) return false;
    if (unknownLogged.size >= 10_000) unknownLogged.clear();
    unknownLogged.set(sn, now);
    return true;
  };

  /** Resolves once the message is committed (or dropped and logged); rejects when it could not be stored. */
  const ingestOne = async (packet: IPublishPacket): Promise<void> => {
    const topic = parseDeviceTopic(packet.topic);
    if (!topic) return; // not one of ours (the filters make this impossible)
    const device = await ingest.deviceOf(topic.sn);
    if (!device) {
      if (logUnknown(topic.sn)) await ingest.refused(topic.sn, 'unknownDevice', { via: 'mqtt', topic: packet.topic });
      return;
    }
    await ingest.uplink(device, topic.kind, packet.payload);
  };

  const currentLink = (): Link => {
    if (!link || link.stream !== client.stream) link = { stream: client.stream, tail: Promise.resolve(), broken: false };
    return link;
  };

  /** A message that could not be stored: no PUBACK, and a new connection so the broker sends it again. */
  const notStored = (l: Link, err: unknown) => {
    log.error({ err }, 'a device message could not be stored; reconnecting so the broker delivers it again');
    if (l.broken) return;
    l.broken = true;
    if (client.stream === l.stream) client.stream.destroy();
  };

  const sendPuback = (l: Link, messageId: number) => {
    // Only on the connection the message came on: after a reconnect the broker sends it again.
    if (l.broken || !client.connected || client.stream !== l.stream) return;
    (client as unknown as ClientInternals)._sendPacket({ cmd: 'puback', messageId, reasonCode: 0 });
  };

  const handleMessage = (packet: IPublishPacket, callback: (err?: Error) => void) => {
    if (closing) {
      // Shutting down: neither stored nor acknowledged; the broker keeps it for the next connection.
      callback(packet.qos > 0 ? NO_ACK_NOW : undefined);
      return;
    }
    const l = currentLink();
    const stored = ingestOne(packet).then(
      () => true,
      (err: unknown) => {
        notStored(l, err);
        return false;
      },
    );
    if (packet.qos === 0) {
      track(stored);
      callback();
      return;
    }
    if (!pipelined) {
      // One at a time: mqtt.js sends the PUBACK when called without an error.
      track(stored);
      void stored.then((ok) => callback(ok ? undefined : NO_ACK_NOW));
      return;
    }
    const messageId = packet.messageId!;
    // Open until acknowledged: the PUBACKs leave in the order the messages came.
    l.tail = l.tail.then(async () => {
      if (await stored) sendPuback(l, messageId);
    });
    track(l.tail);
    if (inFlight.size < maxInFlight) return callback(NO_ACK_NOW);
    // Too much open: stop reading until some of it is committed (the broker holds the rest).
    waitingForRoom.push(() => callback(NO_ACK_NOW));
  };

  const clientOptions = (): IClientOptions => ({
    clientId: opts.clientId,
    ...(opts.username !== undefined ? { username: opts.username } : {}),
    ...(opts.password !== undefined ? { password: opts.password } : {}),
    protocolVersion: version,
    clean: false,
    keepalive: 30,
    connectTimeout: 10_000,
    reconnectPeriod: opts.reconnectPeriodMs ?? 2000,
    reconnectOnConnackError: true,
    resubscribe: false,
    ...(version === 5
      ? { properties: { sessionExpiryInterval: opts.sessionExpiry, receiveMaximum: Math.min(65535, maxInFlight) } }
      : {}),
  });

  const subscribe = async () => {
    const granted = await client.subscribeAsync(Object.fromEntries(topics.map((t) => [t, { qos: 1 as const }])));
    const refused = granted.filter((g) => g.qos !== 0 && g.qos !== 1 && g.qos !== 2);
    if (refused.length > 0) {
      throw new Error(
        `the broker refused the subscription to ${refused.map((g) => g.topic).join(', ')} ` +
          '(does it support shared subscriptions, and may MQTT_USERNAME subscribe to them?)',
      );
    }
  };

  const open = () =>
    new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      client = mqtt.connect(opts.url, clientOptions());
      pipelined = typeof (client as unknown as Partial<ClientInternals>)._sendPacket === 'function';
      if (!pipelined) log.warn('mqtt.js has no _sendPacket: external broker messages are acknowledged one at a time');
      client.handleMessage = handleMessage;
      const timer = setTimeout(() => {
        log.warn(`the external MQTT broker ${url} does not answer yet; still trying`);
        settle();
      }, opts.connectWaitMs ?? 10_000);

      client.on('connect', (connack) => {
        lostLogged = false;
        log.info(
          { broker: url, clientId: opts.clientId, protocol: version === 5 ? 'MQTT 5' : 'MQTT 3.1.1', sessionPresent: connack.sessionPresent },
          everConnected ? 'reconnected to the external MQTT broker' : 'connected to the external MQTT broker',
        );
        subscribe().then(
          () => {
            if (!everConnected) log.info({ topics }, 'subscribed to the device topics');
            everConnected = true;
            settle();
          },
          (err: unknown) => {
            log.error({ err }, 'subscription to the device topics failed');
            settle(err instanceof Error ? err : new Error(String(err)));
          },
        );
      });
      client.on('error', (err: Error & { code?: number | string }) => {
        const code = typeof err.code === 'number' ? err.code : undefined;
        if (!everConnected && version === 5 && !opts.protocolVersion && code !== undefined && UNSUPPORTED_PROTOCOL.has(code)) {
          log.info(`the external MQTT broker ${url} does not speak MQTT 5; using 3.1.1`);
          return settle(Object.assign(new Error('fall back to 3.1.1'), { fallback: true }));
        }
        if (!everConnected && code !== undefined && REFUSED_LOGIN.has(code)) {
          return settle(new Error(`the external MQTT broker ${url} refused the login (${err.message}): check MQTT_USERNAME / MQTT_PASSWORD`));
        }
        if (lostLogged) log.debug({ err }, 'external MQTT broker');
        else log.warn({ err: err.message }, `external MQTT broker ${url}`);
        lostLogged = true;
      });
      client.on('close', () => {
        if (everConnected && !closing && !lostLogged) {
          lostLogged = true;
          log.warn(`lost the connection to the external MQTT broker ${url}; reconnecting`);
        }
      });
      client.on('reconnect', () => log.debug(`reconnecting to the external MQTT broker ${url}`));
    });

  for (;;) {
    try {
      await open();
      break;
    } catch (err) {
      client.end(true);
      if ((err as { fallback?: boolean }).fallback) {
        version = 4;
        continue;
      }
      throw err;
    }
  }

  return {
    url,
    topics,
    get protocolVersion() {
      return version;
    },
    get pipelined() {
      return pipelined;
    },
    get client() {
      return client;
    },
    async close() {
      closing = true;
      // Stored and acknowledged before the link closes; then DISCONNECT keeps the session.
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      for (const wake of waitingForRoom.splice(0)) wake();
      await client.endAsync();
    },
  };
}
