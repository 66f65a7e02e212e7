import path from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, PGLITE_TEMPLATE } from './db/client.js';
import { seed, type SeedResult } from './db/seed/index.js';
import { DEMO_PROJECT, startDemo, type DemoFleet } from './demo/demo.js';
import { whileLeading } from './lib/leader.js';
import { startEmbeddedBroker, type EmbeddedBroker } from './telemetry/transports/mqtt.js';
import { externalBrokerOptions, startExternalBroker, type ExternalBroker } from './telemetry/transports/mqtt-external.js';

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    parallelWorkers: config.databaseParallelWorkers,
    statementTimeoutMs: config.statementTimeoutMs,
    heavyConnections: config.heavyReads.total,
    // Beside the compiled server only (npm run build); run from the sources, PGlite starts empty.
    templateFile: path.join(import.meta.dirname, PGLITE_TEMPLATE),
  });
  const seeded = await seed(database.db, {
    adminUsername: config.adminUsername,
    adminPassword: config.adminPassword,
  });
  const app = await buildApp(config, {
    database,
    // Readable logs on a terminal, JSON lines otherwise (for log shippers).
    logger: {
      level: config.logLevel,
      ...(process.stdout.isTTY
        ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } }
        : {}),
    },
  });
  if (!config.captcha) app.log.warn('CAPTCHA=off: logins need no captcha (meant for automation only)');
  if (config.redisUrl) app.log.info({ channel: config.redisChannel }, 'events fan out through Redis');
  if (config.payment.kind === 'simulated') {
    app.log.warn('PAYMENT_PROVIDER=simulated: card orders are paid through a simulated provider (a console button marks them paid); set PAYMENT_PROVIDER=wechat for real payments');
  }

  // Not ready until the broker is up: a load balancer must not send browsers (nor an operator's
  // check) to an instance whose devices cannot connect yet. Replaced below once it has started.
  app.readiness.set('broker', async () => {
    throw new Error('the MQTT broker is starting');
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    app.log.error(
      code === 'EADDRINUSE'
        ? `PORT ${config.port} is already in use: stop the other process or set PORT`
        : `cannot listen on ${config.host}:${config.port}: ${String(err)}`,
    );
    await database.close();
    process.exit(1);
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;

  let broker: EmbeddedBroker | undefined;
  let external: ExternalBroker | undefined;
  if (config.mqttUrl) {
    if (config.mqttPortSet) app.log.warn('MQTT_URL is set: MQTT_PORT is ignored (no embedded broker)');
    if (!config.brokerAuthSecret) {
      app.log.warn('BROKER_AUTH_SECRET is not set: the broker auth hooks (/api/v1/broker/…) refuse every call');
    }
    try {
      external = await startExternalBroker(app.ingest, app.log, { ...externalBrokerOptions(config), commands: app.commands });
    } catch (err) {
      app.log.error(`cannot use the external MQTT broker: ${(err as Error).message}`);
      await app.close();
      await database.close();
      process.exit(1);
    }
  } else {
    try {
      broker = await startEmbeddedBroker(app.ingest, app.log, {
        port: config.mqttPort,
        host: config.host,
        commands: app.commands,
        limits: config.mqttLimits,
        tls: config.mqttTls,
        wsPort: config.mqttWsPort,
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' && !config.mqttPortSet) {
        // The default port is taken (often by a system Mosquitto): the console still starts, and
        // says how to give devices a broker.
        app.log.warn(
          `port ${config.mqttPort} is taken (another MQTT broker?): the embedded broker is off; devices can use HTTP, ` +
            'or set MQTT_PORT to a free port (0 picks one)',
        );
      } else {
        app.log.error(
          code === 'EADDRINUSE'
            ? `MQTT_PORT ${config.mqttPort} is already in use (another broker?): stop it or choose another MQTT_PORT`
            : `cannot start the MQTT broker: ${String(err)}`,
        );
        await app.close();
        await database.close();
        process.exit(1);
      }
    }
  }

  // Devices need the broker: an instance whose broker is gone leaves the load balancer's pool.
  // With the default port taken the console runs without one (devices use HTTP): no check then.
  const ext = external;
  const emb = broker;
  if (ext) app.readiness.set('broker', async () => {
    if (!ext.client.connected) throw new Error('not connected to the external broker');
  });
  else if (emb) app.readiness.set('broker', async () => {
    if (emb.broker.closed) throw new Error('the embedded broker is closed');
  });
  else app.readiness.delete('broker');

  // The demo fleet streams through the ingestion path once the server takes requests, from the
  // leading instance only (decision 0038): another one takes it over when that one goes.
  let demo: DemoFleet | undefined;
  const demoMode = config.demo;
  const demoJob =
    demoMode === 'off'
      ? undefined
      : whileLeading(app.leadership, app.log, [
          {
            name: 'demo fleet',
            start: async () => {
              demo = await startDemo(
                { db: database.db, ingest: app.ingest, log: app.log, commands: app.commands },
                { mode: demoMode, adminUsername: config.adminUsername },
              );
            },
            stop: async () => {
              await demo?.stop();
              demo = undefined;
            },
          },
        ]);
  await demoJob?.settled();
  printBanner(config, port, database.engine, seeded, broker?.port, external, demo?.size);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      // Devices first: what the ingestion queue holds is stored while the embedded broker's
      // connections are still open, so each stored message is acknowledged (a device never has to
      // resend what was stored; if it does, storage is idempotent). Messages arriving meanwhile
      // are not taken and not acknowledged. The external client acknowledges what it took once
      // stored; then the app closes.
      await demoJob?.stop();
      if (broker) {
        await app.ingest.stop();
        await broker.settle();
        await broker.close();
      }
      await external?.close();
      await app.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

function printBanner(
  config: Config,
  port: number,
  engine: string,
  seeded: SeedResult,
  mqttPort?: number,
  external?: ExternalBroker,
  demoDevices?: number,
) {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const lines = [
    `IoT device management console is running`,
    `  Console   http://${host}:${port}/`,
    `  API docs  http://${host}:${port}/api/docs`,
    `  Database  ${engine === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    `  Captcha   ${config.captcha ? 'on' : 'OFF (automation mode)'}`,
    `  Devices   ${
      external
        ? `${external.url} (external broker, share group ${config.mqttShareGroup})`
        : mqttPort !== undefined
          ? `mqtt://${host}:${mqttPort} (embedded broker)`
          : 'HTTP only'
    }; HTTP POST /api/v1/ingest/<kind> (docs/PROTOCOL.md)`,
  ];
  if (demoDevices) lines.push(`  Demo      ${demoDevices} simulated devices in project "${DEMO_PROJECT}" (DEMO=off stops them)`);
  if (seeded.adminCreated) {
    lines.push(
      `  Super administrator created: ${config.adminUsername}`,
      seeded.generatedAdminPassword
        ? `  Password (shown once, change it after logging in): ${seeded.generatedAdminPassword}`
        : `  Password: the ADMIN_PASSWORD you set`,
    );
  }
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  const bar = '─'.repeat(width);
  console.log(`\n┌${bar}┐\n${lines.map((l) => `│ ${l.padEnd(width - 1)}│`).join('\n')}\n└${bar}┘\n`);
}

main().catch((err) => {
  console.error('start-up failed:', err);
  process.exit(1);
});
