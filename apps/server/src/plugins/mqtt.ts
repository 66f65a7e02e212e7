import net from 'node:net';
import { Aedes, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { DOWNLINK_KIND, deviceTopic, parseDeviceTopic } from '@iot/contract';
import type { CommandService } from '../ingest/commands.js';
import type { IngestDevice, IngestService } from '../ingest/ingest.service.js';

export interface EmbeddedBroker {
  port: number;
  broker: Aedes;
  close(): Promise<void>;
}

/** CONNACK codes of MQTT 3.1.1 for a refused login. */
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
export async function startEmbeddedBroker(
  ingest: IngestService,
  log: FastifyBaseLogger,
  opts: { port: number; host: string; commands?: CommandService },
): Promise<EmbeddedBroker> {
  const devices = new WeakMap<Client, IngestDevice>();
  /** Connected clients per SN (a device may briefly have two while it reconnects). */
  const connected = new Map<string, number>();
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
        ingest.uplink(device, topic.kind, packet.payload, release).then(release, (err: unknown) => {
          log.error({ err }, 'ingestion failed');
          release();
        });
        return;
      }
      const work = ingest.uplink(device, topic.kind, packet.payload);
      // At least once: PUBACK after the commit; a failed write, or a message over the device's
      // rate, drops the connection unacknowledged so that the device sends the message again.
      work.then(
        (outcome) => done(outcome.rejected[0]?.reason === 'rateLimited' ? new Error('rate limited') : null),
        (err: unknown) => {
          log.error({ err }, 'ingestion failed');
          done(new Error('not stored'));
        },
      );
    },
    authorizeSubscribe(client, sub, done) {
      const device = client ? devices.get(client) : undefined;
      if (device && sub.topic === deviceTopic(device.sn, DOWNLINK_KIND)) return done(null, sub);
      // Granted QoS 128: refused, the connection stays.
      done(null, null);
    },
  });

  broker.on('client', (client) => {
    const device = devices.get(client);
    if (device) {
      connected.set(device.sn, (connected.get(device.sn) ?? 0) + 1);
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
      const n = (connected.get(device.sn) ?? 1) - 1;
      if (n > 0) connected.set(device.sn, n);
      else connected.delete(device.sn);
      const set = clientsOf.get(device.sn);
      set?.delete(client);
      if (set?.size === 0) clientsOf.delete(device.sn);
      // Offline only when its last connection closes (a device may listen on one connection
      // and publish on others).
      void ingest
        .disconnected(device, { clientId: client.id }, n > 0 ? n : 0)
        .catch((err: unknown) => log.error({ err }, 'disconnect not recorded'));
    }
  });

  // Commands: published on dev/<sn>/cmd (QoS 1) to a connected device; what waited for a device
  // goes out when it subscribes to its command topic.
  const commands = opts.commands;
  if (commands) {
    commands.setDownlink(async (sn, command) => {
      if (!connected.has(sn)) return false;
      await new Promise<void>((resolve, reject) =>
        broker.publish(
          { cmd: 'publish', topic: deviceTopic(sn, DOWNLINK_KIND), payload: Buffer.from(JSON.stringify(command)), qos: 1, retain: false, dup: false },
          (err) => (err ? reject(err) : resolve()),
        ),
      );
      return true;
    });
    broker.on('subscribe', (subs, client) => {
      const device = client ? devices.get(client) : undefined;
      if (device && subs.some((s) => s.topic === deviceTopic(device.sn, DOWNLINK_KIND))) {
        void commands.deliverPending(device).catch((err: unknown) => log.error({ err }, 'pending commands not delivered'));
      }
    });
  }

  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  return {
    port,
    broker,
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
