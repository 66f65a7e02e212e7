import type { IClientOptions, IPublishPacket, MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { DOWNLINK_KIND, REPLY_KIND, TOPIC_ROOT, UPLINK_KINDS, deviceTopic, parseDeviceTopic } from '@iot/contract';
import type { Config } from '../../config.js';
import type { CommandService } from '../commands.js';
import type { IngestDevice, IngestService } from '../ingest.service.js';
import { replyTo } from '../replies.js';

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
  /** The command channel: commands are published on dev/<sn>/cmd through this client. */
  commands?: CommandService;
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
/** A message left for the next connection (closing): not acknowledged, not an error. */
const NOT_NOW = new Error('closing: left to the broker');
/** MQTT 5 PUBACK reason "No matching subscribers": the device is not listening. */
const NO_SUBSCRIBERS = 0x10;

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
  // mqtt.js only for an external broker: loading it cost an embedded start 0.2–0.7 s.
  const { default: mqtt } = await import('mqtt');
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
  /** Reason codes of the PUBACKs the broker sent for our publishes (commands), by packet id. */
  const pubackCodes = new Map<number, number>();

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

  /**
   * A device heard from for the first time since this client started or after a silence of
   * DEVICE_OFFLINE_AFTER: it is (back) on the network, so the commands waiting for it go out.
   * The broker does not tell this client about connections, so its messages stand in for them.
   */
  const lastHeard = new Map<string, number>();
  /** Per device, the last of its QoS 1 messages waiting for the device's rate. */
  const held = new Map<string, Promise<unknown>>();
  const heardFrom = (device: IngestDevice) => {
    const now = Date.now();
    const last = lastHeard.get(device.sn);
    if (lastHeard.size >= 100_000) lastHeard.clear();
    lastHeard.set(device.sn, now);
    if (!opts.commands || (last !== undefined && now - last < ingest.opts.offlineAfterMs)) return;
    void opts.commands.deliverPending(device).catch((err: unknown) => log.error({ err }, 'pending commands not delivered'));
  };

  /**
   * Resolves once the message is committed (or dropped and logged); rejects when it could not be
   * stored, or with NOT_NOW when the client is closing before it was.
   */
  const ingestOne = async (packet: IPublishPacket): Promise<void> => {
    const topic = parseDeviceTopic(packet.topic);
    if (!topic) return; // not one of ours (the filters make this impossible)
    const device = await ingest.deviceOf(topic.sn);
    if (!device) {
      if (logUnknown(topic.sn)) await ingest.refused(topic.sn, 'unknownDevice', { via: 'mqtt', topic: packet.topic });
      return;
    }
    const take = async () => {
      const outcome = await ingest.uplink(device, topic.kind, packet.payload, undefined, { via: 'mqtt-external' });
      if (outcome.rejected[0]?.reason === 'rateLimited') return false;
      // The reply (server time, refusals) on dev/<sn>/reply, QoS 0: a hint, not a record.
      const reply = replyTo(topic.kind, packet.topic, packet.payload, outcome);
      if (reply) {
        client.publishAsync(deviceTopic(device.sn, REPLY_KIND), JSON.stringify(reply), { qos: 0 }).catch((err: unknown) => log.warn({ err }, 'reply not published'));
      }
      return true;
    };
    // Over the device's rate: QoS 0 is dropped (logged). The broker has already acknowledged a
    // QoS 1 message to the device, which will not send it again: it waits for the device's turn,
    // behind the device's other waiting messages (in order).
    if (!held.has(device.sn)) {
      if ((await take()) || packet.qos === 0) {
        heardFrom(device);
        return;
      }
    } else if (packet.qos === 0) {
      return; // the device is over its rate (its waiting messages' retries log it)
    }
    const before = held.get(device.sn) ?? Promise.resolve();
    const mine = before.then(async () => {
      while (!(await take())) {
        if (closing) throw NOT_NOW;
        await new Promise((r) => setTimeout(r, Math.ceil(1000 / ingest.opts.perDeviceRate)));
      }
    });
    const tail = mine.catch(() => undefined);
    held.set(device.sn, tail);
    try {
      await mine;
    } finally {
      if (held.get(device.sn) === tail) held.delete(device.sn);
    }
    heardFrom(device);
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
        if (err !== NOT_NOW) notStored(l, err);
        return false;
      },
    );
    if (packet.qos === 0) {
      track(stored);
      if (inFlight.size < maxInFlight) return callback();
      waitingForRoom.push(() => callback());
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
      client.on('packetreceive', (p) => {
        if (p.cmd !== 'puback' || p.messageId === undefined) return;
        if (pubackCodes.size >= 10_000) pubackCodes.clear();
        pubackCodes.set(p.messageId, p.reasonCode ?? 0);
      });
      const timer = setTimeout(() => {
        log.warn(`the external MQTT broker ${url} does not answer yet; still trying`);
        settle();
      }, opts.connectWaitMs ?? 10_000);

      client.on('connect', (connack) => {
        lostLogged = false;
        if (everConnected && !connack.sessionPresent) {
          log.warn(`the external MQTT broker ${url} did not keep this client's session: messages sent while it was away may be lost`);
        }
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

  // Commands go out through the broker on dev/<sn>/cmd, QoS 1. Under MQTT 5 the broker says when
  // nobody is subscribed there (PUBACK 0x10): the command then stays pending until the device is
  // heard from again. Under 3.1.1 it cannot tell, and the command counts as sent.
  opts.commands?.setDownlink(async (sn, command) => {
    if (!client.connected) return false;
    const publish = client.publishAsync(deviceTopic(sn, DOWNLINK_KIND), JSON.stringify(command), { qos: 1 });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the broker did not acknowledge the command')), 10_000);
    });
    try {
      const packet = await Promise.race([publish, timeout]);
      const id = packet?.messageId;
      const code = id === undefined ? undefined : pubackCodes.get(id);
      if (id !== undefined) pubackCodes.delete(id);
      return code !== NO_SUBSCRIBERS;
    } finally {
      clearTimeout(timer);
    }
  });

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
      opts.commands?.setDownlink(async () => false);
      // Stored and acknowledged before the link closes; then DISCONNECT keeps the session.
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      for (const wake of waitingForRoom.splice(0)) wake();
      await client.endAsync();
    },
  };
}
