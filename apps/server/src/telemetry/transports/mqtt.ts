import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { Aedes, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { DOWNLINK_KIND, REPLY_KIND, UPLINK_KINDS, deviceTopic, isOwnClientId, parseDeviceTopic, type Reply } from '@iot/contract';
import type { CommandService } from '../commands.js';
import type { IngestDevice, IngestService, UplinkOutcome } from '../ingest.service.js';
import { replyTo } from '../replies.js';
import { PacketGate, type GateRefusal } from './mqtt-gate.js';

export interface EmbeddedBroker {
  port: number;
  /** The TLS listener's port, when one was asked for. */
  tlsPort?: number;
  /** The MQTT-over-WebSocket listener's port, when one was asked for. */
  wsPort?: number;
  broker: Aedes;
  /** Waits (up to 2 s) until what was written to the connections has left the server (PUBACKs at shutdown). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** CONNACK codes of MQTT 3.1.1 for a refused login. */
const IDENTIFIER_REJECTED = 2;
const BAD_CREDENTIALS = 4;
const NOT_AUTHORIZED = 5;

/** An MQTT 5 CONNACK refusing the connection: reason code and reason string (property 0x1F). */
function connackV5(reasonCode: number, reasonString: string): Buffer {
  const text = Buffer.from(reasonString, 'utf8').subarray(0, 200);
  const props = Buffer.concat([Buffer.from([0x1f, text.length >> 8, text.length & 0xff]), text]);
  // Properties stay under 128 bytes of length prefix: one-byte variable integers.
  const body = Buffer.concat([Buffer.from([0x00, reasonCode, props.length]), props]);
  return Buffer.concat([Buffer.from([0x20, body.length]), body]);
}

/**
 * The embedded MQTT 3.1.1 broker (Aedes) devices connect to by default. A device logs in with
 * its SN as username and its secret as password, may publish only to `dev/<its sn>/<kind>` and
 * subscribe only to `dev/<its sn>/cmd`. Every uplink goes through the ingestion service; a QoS 1
 * message is acknowledged (PUBACK) only once its batch is committed.
 */
export interface BrokerLimits {
  /** Largest MQTT packet a device may send (MQTT_MAX_PACKET), refused from its header. */
  maxPacketBytes: number;
  /** CONNECT must arrive this soon after the connection opens (MQTT_CONNECT_TIMEOUT). */
  connectTimeoutMs: number;
  /** New connections per client address and minute (MQTT_CONNECTS_PER_MINUTE); 0: no limit. */
  connectsPerMinute: number;
}

export const DEFAULT_BROKER_LIMITS: BrokerLimits = { maxPacketBytes: 256 * 1024, connectTimeoutMs: 10_000, connectsPerMinute: 600 };

/** Whether a client holds a subscription (Aedes keeps them on the client; its types omit them). */
const subscribedTo = (client: Client, topic: string) =>
  Boolean((client as Client & { subscriptions?: Record<string, unknown> }).subscriptions?.[topic]);

/** Packets of one device handed to the broker at once (see PacketGate). */
const PACKETS_PER_READ = 32;

export interface BrokerOptions {
  port: number;
  host: string;
  commands?: CommandService;
  limits?: Partial<BrokerLimits>;
  /** MQTT over TLS beside plain MQTT: its port and PEM files (MQTT_TLS_PORT, MQTT_TLS_CERT, MQTT_TLS_KEY). */
  tls?: { port: number; certFile: string; keyFile: string };
  /** MQTT over WebSocket (MQTT_WS_PORT), path /mqtt; TLS for it comes from the reverse proxy. */
  wsPort?: number;
}

export async function startEmbeddedBroker(
  ingest: IngestService,
  log: FastifyBaseLogger,
  opts: BrokerOptions,
): Promise<EmbeddedBroker> {
  const limits = { ...DEFAULT_BROKER_LIMITS, ...opts.limits };
  const devices = new WeakMap<Client, IngestDevice>();
  /** The clients of each SN, to disconnect a device that is disabled, deleted or given a new secret. */
  const clientsOf = new Map<string, Set<Client>>();
  ingest.onRevoked((sns) => {
    for (const sn of sns) {
      for (const client of clientsOf.get(sn) ?? []) {
        log.info({ sn, clientId: client.id }, 'device disconnected: its access changed');
        client.close();
      }
    }
  });
  const broker = await Aedes.createBroker({
    // A client that does not read its socket is dropped after 30 s instead of holding memory.
    drainTimeout: 30_000,
    connectTimeout: limits.connectTimeoutMs,
    // Client ids are `<SN>` or `<SN>@<suffix>` (SNs are up to 64 characters).
    maxClientsIdLength: 128,
    // Aedes speaks MQTT 3.1 and 3.1.1. An MQTT 5 device is answered in its own version:
    // CONNACK 0x84 "unsupported protocol version" with a reason string naming the way out (MQTT 5
    // is served in external-broker mode, docs/PROTOCOL.md), then the connection closes.
    preConnect(client, packet, done) {
      if (packet.protocolVersion !== 5) return done(null, true);
      const reason = 'MQTT 5 is served through an external broker (MQTT_URL); this embedded broker speaks MQTT 3.1.1';
      void ingest.refused(packet.username ?? '', 'unsupportedProtocol', { clientId: packet.clientId, via: 'mqtt', protocolVersion: 5 });
      const conn = client.conn as unknown as NodeJS.WritableStream & { destroy(): void };
      conn.write(connackV5(0x84, reason), () => conn.destroy());
      done(null, false);
    },
    authenticate(client, username, password, done) {
      const sn = username ?? '';
      const secret = password?.toString() ?? '';
      const refuse = (reason: 'unknownDevice' | 'badCredentials' | 'deviceDisabled') => {
        void ingest.refused(sn, reason, { clientId: client.id, via: 'mqtt' });
        const err =
          reason === 'deviceDisabled'
            ? Object.assign(new Error('Not authorized: the device is disabled'), { returnCode: NOT_AUTHORIZED })
            : Object.assign(new Error('Bad username or password'), { returnCode: BAD_CREDENTIALS });
        done(err, false);
      };
      if (!sn || !secret) return refuse('badCredentials');
      ingest.authenticate(sn, secret).then(
        (r) => {
          if ('reason' in r) {
            return refuse(r.reason === 'unknownDevice' || r.reason === 'deviceDisabled' ? r.reason : 'badCredentials');
          }
          // The client id is bound to the SN (`<SN>` or `<SN>@<suffix>`): a device can never take
          // over another device's session (MQTT closes the older connection of a client id and
          // hands a persistent session's queued messages to the newer one).
          if (!isOwnClientId(sn, client.id)) {
            void ingest.refused(sn, 'foreignClientId', { clientId: client.id, via: 'mqtt' });
            return done(Object.assign(new Error('Identifier rejected: the client id must be the SN or <SN>@<suffix>'), { returnCode: IDENTIFIER_REJECTED }), false);
          }
          devices.set(client, r.device);
          done(null, true);
        },
        (err: unknown) => {
          log.error({ err }, 'mqtt authentication failed');
          done(Object.assign(new Error('Server unavailable'), { returnCode: 3 }), false);
        },
      );
    },
    authorizePublish(client, packet, done) {
      const device = client ? devices.get(client) : undefined;
      const topic = parseDeviceTopic(packet.topic);
      if (!device || !topic || topic.sn !== device.sn) {
        if (device) void ingest.refused(device.sn, 'foreignTopic', { topic: packet.topic });
        return done(new Error('publishing to another device’s topic is not allowed'));
      }
      // A device publishes only the kinds it may send: never to its command topic (a fake command
      // its own listener would get) nor to any other name under its SN.
      if (!(UPLINK_KINDS as readonly string[]).includes(topic.kind)) {
        void ingest.refused(device.sn, 'unknownKind', { topic: packet.topic, via: 'mqtt' });
        return done(new Error('a device may publish only telemetry, gps, alarm, status and ack'));
      }
      // Nothing a device sends is kept by the broker for later subscribers: retain is dropped.
      packet.retain = false;
      const wait = ingest.pace(device);
      if (wait > 0) {
        // Over its rate: the message is taken at the device's turn. Its PUBACK comes that much
        // later, and the gate hands the broker the device's next packets only once these are
        // done, so a device replaying a backlog is slowed down, never cut off.
        setTimeout(() => take(client!, device, topic.kind, packet, done), wait);
        return;
      }
      take(client!, device, topic.kind, packet, done);
    },
    authorizeSubscribe(client, sub, done) {
      const device = client ? devices.get(client) : undefined;
      if (device && (sub.topic === deviceTopic(device.sn, DOWNLINK_KIND) || sub.topic === deviceTopic(device.sn, REPLY_KIND))) {
        return done(null, sub);
      }
      // Granted QoS 128: refused, the connection stays.
      done(null, null);
    },
  });

  /** Hands one publish to ingestion (after its turn at the device's rate) and answers the broker. */
  function take(
    client: Client,
    device: IngestDevice,
    kind: string,
    packet: { qos: number; topic: string; payload: Buffer | string },
    done: (err?: Error | null) => void,
  ) {
    const answer = (outcome: UplinkOutcome) => {
      const reply = replyTo(kind, packet.topic, packet.payload, outcome);
      if (reply) publishReply(device.sn, reply);
    };
    if (client.closed) return done(new Error('connection closed'));
    // Shutting down: the message is neither taken nor acknowledged (the device sends it again to
    // the next server), and the connection stays open until the broker closes, so the
    // acknowledgements of what was stored before still reach the device.
    if (ingest.stopping) return;
    if (packet.qos === 0) {
      // Nothing is acknowledged to the device, but the publish is let go only once its rows
      // are in the writer's queue: while the queue is full Aedes stops reading this client's
      // socket (it reads on when every packet of the last read is let go), so QoS 0 publishers
      // are held back like QoS 1 ones instead of piling up in memory.
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        done(null);
      };
      ingest.uplink(device, kind, packet.payload, release, { paced: true, via: 'mqtt' }).then((outcome) => {
        release();
        answer(outcome);
      }, (err: unknown) => {
        log.error({ err }, 'ingestion failed');
        release();
      });
      return;
    }
    // At least once: PUBACK (QoS 1; PUBREC for QoS 2) after the commit; a failed write drops
    // the connection unacknowledged so that the device sends the message again (storage is
    // idempotent, so resending never duplicates a sample).
    ingest.uplink(device, kind, packet.payload, undefined, { paced: true, via: 'mqtt' }).then(
      (outcome) => {
        done(null);
        answer(outcome);
      },
      (err: unknown) => {
        // Refused by a stopping server: left unacknowledged, the connection kept for the others.
        if (ingest.stopping) return;
        log.error({ err }, 'ingestion failed');
        done(new Error('not stored'));
      },
    );
  }

  broker.on('client', (client) => {
    const device = devices.get(client);
    if (device) {
      let set = clientsOf.get(device.sn);
      if (!set) clientsOf.set(device.sn, (set = new Set()));
      set.add(client);
      void ingest
        .connected(device, { clientId: client.id, via: 'mqtt' })
        .catch((err: unknown) => log.error({ err }, 'connect not recorded'));
    }
  });
  broker.on('clientDisconnect', (client) => {
    const device = devices.get(client);
    if (device) {
      const set = clientsOf.get(device.sn);
      set?.delete(client);
      if (set?.size === 0) clientsOf.delete(device.sn);
      // Offline only when its last connection closes (a device may listen on one connection
      // and publish on others).
      void ingest
        .disconnected(device, { clientId: client.id })
        .catch((err: unknown) => log.error({ err }, 'disconnect not recorded'));
    }
  });

  /** Whether a connection of the device is subscribed to its command (or reply) topic. */
  const listening = (sn: string, kind: typeof DOWNLINK_KIND | typeof REPLY_KIND = DOWNLINK_KIND) => {
    const topic = deviceTopic(sn, kind);
    for (const c of clientsOf.get(sn) ?? []) if (subscribedTo(c, topic)) return true;
    return false;
  };

  /** A reply to a device listening on `dev/<sn>/reply` (QoS 0: a hint, not a record). */
  function publishReply(sn: string, reply: Reply) {
    if (!listening(sn, REPLY_KIND)) return;
    broker.publish(
      { cmd: 'publish', topic: deviceTopic(sn, REPLY_KIND), payload: Buffer.from(JSON.stringify(reply)), qos: 0, retain: false, dup: false },
      (err) => err && log.warn({ err, sn }, 'reply not published'),
    );
  }

  // Commands: published on dev/<sn>/cmd (QoS 1) to a device listening on it; what waited for a
  // device, and what it was sent but never answered, goes out when it subscribes (or reconnects
  // to a persistent session that holds the subscription).
  const commands = opts.commands;
  let offWaiting: (() => void) | undefined;
  if (commands) {
    commands.setDownlink(async (sn, command) => {
      if (!listening(sn)) return false;
      await new Promise<void>((resolve, reject) =>
        broker.publish(
          { cmd: 'publish', topic: deviceTopic(sn, DOWNLINK_KIND), payload: Buffer.from(JSON.stringify(command)), qos: 1, retain: false, dup: false },
          (err) => (err ? reject(err) : resolve()),
        ),
      );
      return true;
    });
    const listens = (device: IngestDevice) =>
      void commands.deliverPending(device, { again: true }).catch((err: unknown) => log.error({ err }, 'pending commands not delivered'));
    broker.on('subscribe', (subs, client) => {
      const device = client ? devices.get(client) : undefined;
      if (device && subs.some((s) => s.topic === deviceTopic(device.sn, DOWNLINK_KIND))) listens(device);
    });
    broker.on('clientReady', (client) => {
      const device = devices.get(client);
      if (device && subscribedTo(client, deviceTopic(device.sn, DOWNLINK_KIND))) listens(device);
    });
    // Commands another instance stored for a device connected here (several instances, each with
    // its own embedded broker): published now rather than at the device's next connection.
    offWaiting = commands.onWaiting((device) => {
      if (!listening(device.sn)) return;
      void commands.deliverPending(device).catch((err: unknown) => log.error({ err }, 'pending commands not delivered'));
    });
  }

  // Connections per client address and minute: a reconnect storm or a scan is cut off before
  // any CONNECT is read (refused connections are logged once a minute per address).
  const recent = new Map<string, { count: number; since: number; logged: boolean }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [addr, r] of recent) if (now - r.since >= 60_000) recent.delete(addr);
  }, 60_000);
  sweep.unref();
  const admitAddress = (addr: string | undefined): boolean => {
    if (!limits.connectsPerMinute || !addr) return true;
    const now = Date.now();
    let r = recent.get(addr);
    if (!r || now - r.since >= 60_000) recent.set(addr, (r = { count: 0, since: now, logged: false }));
    if (++r.count <= limits.connectsPerMinute) return true;
    if (!r.logged) {
      r.logged = true;
      log.warn({ address: addr, perMinute: limits.connectsPerMinute }, 'mqtt: too many connections from one address; refusing it for the rest of the minute');
    }
    return false;
  };

  const accept = (socket: net.Socket, address = socket.remoteAddress) => {
    if (!admitAddress(address)) return socket.destroy();
    // TCP keepalive notices a vanished device whose MQTT keepalive is 0 (none). Nagle stays on (as
    // Aedes has it): at saturation the kernel then joins the many small PUBACKs into fewer segments.
    socket.setKeepAlive?.(true, 60_000);
    // `client` is read only from socket events, after it is set below.
    const gate: PacketGate = new PacketGate(socket, {
      maxPacketBytes: limits.maxPacketBytes,
      packetsPerRead: PACKETS_PER_READ,
      onRefused(reason: GateRefusal, detail) {
        const device = devices.get(client);
        if (device) void ingest.refused(device.sn, 'tooLarge', { ...detail, limit: limits.maxPacketBytes, via: 'mqtt', why: reason });
        else log.debug({ address, reason, ...detail }, 'mqtt connection refused before login');
      },
    });
    const client = broker.handle(gate as unknown as net.Socket) as unknown as Client;
  };

  const servers: (net.Server | tls.Server)[] = [];
  const listen = async (server: net.Server | tls.Server, port: number) => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, opts.host, () => resolve());
    });
    servers.push(server);
    const addr = server.address();
    return typeof addr === 'object' && addr ? addr.port : port;
  };
  const port = await listen(net.createServer(accept), opts.port);
  let tlsPort: number | undefined;
  if (opts.tls) {
    const server = tls.createServer({ cert: fs.readFileSync(opts.tls.certFile), key: fs.readFileSync(opts.tls.keyFile) }, accept);
    // A failed handshake is the client's problem, not the server's.
    server.on('tlsClientError', (err) => log.debug({ err }, 'mqtt tls handshake failed'));
    tlsPort = await listen(server, opts.tls.port);
  }
  let wsPort: number | undefined;
  let wss: WebSocketServer | undefined;
  if (opts.wsPort !== undefined) {
    // MQTT over WebSocket (subprotocol "mqtt", binary frames): the same gate and broker, with the
    // WebSocket as the byte stream (packets may span frames; the gate reads across them).
    const server = http.createServer((_req, res) => res.writeHead(426, { 'content-type': 'text/plain' }).end('MQTT over WebSocket: connect to /mqtt\n'));
    wss = new WebSocketServer({
      server,
      path: '/mqtt',
      maxPayload: limits.maxPacketBytes + 8,
      handleProtocols: (protocols) => (protocols.has('mqtt') ? 'mqtt' : protocols.has('mqttv3.1') ? 'mqttv3.1' : false),
    });
    wss.on('connection', (ws, req) => accept(createWebSocketStream(ws) as unknown as net.Socket, req.socket.remoteAddress));
    wsPort = await listen(server, opts.wsPort);
  }
  return {
    port,
    tlsPort,
    wsPort,
    broker,
    async settle() {
      await new Promise((r) => setTimeout(r, 20));
      const until = Date.now() + 2000;
      const busy = () => [...clientsOf.values()].some((set) => [...set].some((c) => !c.closed && (c.conn as unknown as { writableLength: number }).writableLength > 0));
      while (busy() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    },
    async close() {
      clearInterval(sweep);
      offWaiting?.();
      for (const ws of wss?.clients ?? []) ws.terminate();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
