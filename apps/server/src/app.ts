import zlib from 'node:zlib';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { ping, type Database } from './db/client.js';
import { createLocalBus, type EventBus } from './lib/events.js';
import { createRedisBus, redisClient, type RedisBus } from './lib/redis-bus.js';
import { whileLeading } from './lib/leader.js';
import type { Leadership } from './db/leader.js';
import { openapiTransformObject } from './lib/openapi.js';
import { responseSerializerCompiler } from './lib/serializer.js';
import { AuthService } from './modules/auth/auth.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { MenuService } from './modules/menu/menu.service.js';
import { siteRoutes } from './modules/site/site.routes.js';
import { SiteService } from './modules/site/site.service.js';
import { UserService } from './modules/user/user.service.js';
import { userRoutes } from './modules/user/user.routes.js';
import { UserAdminService } from './modules/user/admin.service.js';
import { userAdminRoutes } from './modules/user/admin.routes.js';
import { RoleService } from './modules/role/role.service.js';
import { roleRoutes } from './modules/role/role.routes.js';
import { PermissionService } from './modules/permission/permission.service.js';
import { permissionRoutes } from './modules/permission/permission.routes.js';
import { MenuAdminService } from './modules/menu/menu.admin.service.js';
import { menuRoutes } from './modules/menu/menu.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { clientErrorRoutes } from './modules/clienterror/clienterror.routes.js';
import { Retention } from './lib/retention.js';
import { pruneOperationLogs } from './modules/audit/audit.repo.js';
import { pruneNotices } from './modules/alarm/notice.repo.js';
import { pruneTrendCounters, TREND_COUNTER_DAYS } from './modules/home/home.repo.js';
import { ClientErrorService } from './modules/clienterror/clienterror.service.js';
import { AuditService, auditRequest } from './modules/audit/audit.service.js';
import { auditPlugin } from './plugins/audit.js';
import { DeviceTypeService } from './modules/devicetype/devicetype.service.js';
import { deviceTypeRoutes } from './modules/devicetype/devicetype.routes.js';
import { ProjectService } from './modules/project/project.service.js';
import { projectRoutes } from './modules/project/project.routes.js';
import { WeatherService } from './modules/project/weather.service.js';
import { DeviceService } from './modules/device/device.service.js';
import { deviceRoutes } from './modules/device/device.routes.js';
import { DeviceSheetService, IMPORT_LIMITS, type ImportLimits } from './modules/device/device.import.js';
import { deviceSheetRoutes } from './modules/device/device.sheet.routes.js';
import { SearchService } from './modules/search/search.service.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { HomeService } from './modules/home/home.service.js';
import { homeRoutes } from './modules/home/home.routes.js';
import { homeBatteryRoutes } from './modules/home/battery.routes.js';
import { MapService } from './modules/map/map.service.js';
import { mapRoutes } from './modules/map/map.routes.js';
import { HomeBatteryService } from './modules/home/battery.service.js';
import multipart from '@fastify/multipart';
import type { IngestService } from './telemetry/ingest.service.js';
import type { CommandService } from './telemetry/commands.js';
import type { PartitionKeeper } from './telemetry/partitions.js';
import type { HistoryRollup } from './telemetry/history.rollup.js';
import { DEFAULT_ENGINE, type AlarmEngine } from './telemetry/alarm.engine.js';
import { createTelemetry, DEFAULT_INGEST, type IngestOptions } from './telemetry/pipeline.js';
import { HttpUplink } from './telemetry/transports/http.js';
import { DeviceDataService } from './modules/devicedata/devicedata.service.js';
import { deviceDataRoutes } from './modules/devicedata/devicedata.routes.js';
import { DeviceDetailService } from './modules/devicedetail/devicedetail.service.js';
import { deviceDetailRoutes } from './modules/devicedetail/devicedetail.routes.js';
import { FenceService } from './modules/fence/fence.service.js';
import { fenceRoutes } from './modules/fence/fence.routes.js';
import { CampaignEngine } from './modules/upgrade/campaign.engine.js';
import { campaignRoutes } from './modules/upgrade/campaign.routes.js';
import { CampaignService } from './modules/upgrade/campaign.service.js';
import { ExternalService } from './modules/upgrade/external.service.js';
import { externalRoutes } from './modules/upgrade/external.routes.js';
import { TrackService } from './modules/track/track.service.js';
import { trackRoutes } from './modules/track/track.routes.js';
import { BrokerAuthService } from './modules/broker/broker.service.js';
import { brokerRoutes } from './modules/broker/broker.routes.js';
import { AlarmService } from './modules/alarm/alarm.service.js';
import { alarmRoutes } from './modules/alarm/alarm.routes.js';
import { AlarmMailer } from './modules/alarm/alarm.mail.js';
import { AlarmNotifier } from './modules/alarm/notice.service.js';
import { SimulatedNotices, type NoticeProvider } from './modules/alarm/notice.provider.js';
import { AliyunNotices } from './modules/alarm/notice.aliyun.js';
import { DEMO_SN_PREFIX } from './demo/demo.js';
import { CardService } from './modules/card/card.service.js';
import { CardSheetService } from './modules/card/card.import.js';
import { cardRoutes } from './modules/card/card.routes.js';
import { OrderService } from './modules/card/order.service.js';
import { orderRoutes } from './modules/card/order.routes.js';
import { UPLOAD_MAX_MB } from './lib/sheet.js';
import { priceRoutes } from './modules/card/price.routes.js';
import { PriceService } from './modules/card/price.service.js';
import { CardJobs } from './modules/card/card.jobs.js';
import type { CarrierAdapter } from './modules/card/carrier.js';
import type { PaymentProvider } from './modules/card/payment.js';
import { carrierFrom, paymentsFrom } from './modules/card/providers.js';
import { SimulatedVideo, type VideoProvider } from './modules/video/video.provider.js';
import { VideoService } from './modules/video/video.service.js';
import { EzvizVideo } from './modules/video/video.ezviz.js';
import { videoRoutes } from './modules/video/video.routes.js';
import { FirmwareService } from './modules/upgrade/firmware.service.js';
import { FirmwareStore } from './modules/upgrade/firmware.store.js';
import { firmwareRoutes } from './modules/upgrade/firmware.routes.js';
import { StoreService } from './modules/store/store.service.js';
import { storeRoutes } from './modules/store/store.routes.js';
import { RentalService } from './modules/store/rental.service.js';
import { rentalRoutes } from './modules/store/rental.routes.js';
import { RentalJobs } from './modules/store/rental.jobs.js';
import { StoreSheetService } from './modules/store/store.sheet.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The ingestion path; main.ts attaches the MQTT broker to it. */
    ingest: IngestService;
    /** The command channel; the broker plugin sets its downlink. */
    commands: CommandService;
    partitions: PartitionKeeper;
    rollups: HistoryRollup;
    /** The alarm stage of the telemetry pipeline (tests make it forget its memory). */
    alarmEngine: AlarmEngine;
    alarms: AlarmService;
    /** Alarm SMS and calls: the job's round (tests run it) and the provider. */
    alarmNotices: AlarmNotifier;
    /** SIM card timers: order expiry and the daily expiry mail (tests call checkExpiry). */
    cardJobs: CardJobs;
    /** Rentals: the overdue job runs on a timer (tests call markOverdue at a given clock). */
    rentals: RentalService;
    /** Upgrade campaigns' rounds (tests run one at a later clock). */
    upgradeEngine: CampaignEngine;
    /** External devices: the timeout sweep runs on a timer (tests call expire). */
    externalDevices: ExternalService;
    /** Whether this instance runs the once-only timers (decision 0038); main.ts runs the demo fleet by it. */
    leadership: Leadership;
  }
}
import { API_PREFIX, authPlugin } from './plugins/auth.js';
import { envelopePlugin } from './plugins/envelope.js';
import { inputPlugin } from './plugins/input.js';
import { realtimePlugin, type RealtimeOptions } from './plugins/realtime.js';
import { healthPlugin } from './plugins/health.js';
import { metricsPlugin } from './plugins/metrics.js';
import { Metrics } from './lib/metrics.js';
import { webPlugin } from './plugins/web.js';
import { endpointParityPlugin, HEAVY_READ_WAIT_MS } from './plugins/endpoint.js';
import { HeavyReads } from './lib/heavy-reads.js';
import type { AnyEndpoint } from '@iot/contract';

/**
 * Answers from this size on are compressed (decision 0044): long pages, the fleet map's
 * positions, histories. Below it the saving is a few milliseconds of a fast link, for CPU on
 * most requests.
 */
export const COMPRESS_MIN_BYTES = 16 * 1024;

/**
 * Security headers on every answer (console, API, docs). The console runs no inline script; antd
 * writes inline styles, and the login captcha is an SVG data: URL. Live updates use a same-origin
 * WebSocket ('self' covers ws:/wss: of this host). HSTS is left to the TLS-terminating proxy, and
 * no upgrade-insecure-requests, so a plain-HTTP install on a LAN address keeps loading its files.
 * Images also come from the map tile server when MAP_TILE_URL names one (its origin only), and
 * camera video from the video platform's hosts (VIDEO_PROVIDER=ezviz, EZVIZ_MEDIA_ORIGINS).
 */
const securityHeaders = (config: Config, videoOrigins = config.video.kind === 'ezviz' ? config.video.mediaOrigins : []) => ({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', ...(config.mapTileOrigin ? [config.mapTileOrigin] : [])],
      fontSrc: ["'self'", 'data:'],
      // A camera platform's HLS playlists and segments, which the console's player fetches (hls.js
      // into a blob: MediaSource, or the browser's own HLS).
      connectSrc: ["'self'", ...videoOrigins],
      mediaSrc: ["'self'", ...(videoOrigins.length ? ['blob:', ...videoOrigins] : [])],
      objectSrc: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'no-referrer' as const },
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
});

export interface AppDeps {
  database: Database;
  bus?: EventBus;
  /** Ingestion timings and batch sizes (tests shorten them). */
  ingest?: Partial<IngestOptions>;
  /** Shorter live-channel timings for tests. */
  liveTiming?: RealtimeOptions['timing'];
  /** Live-channel caps on unauthenticated sockets (tests lower them). */
  liveLimits?: RealtimeOptions['limits'];
  logger?: boolean | object;
  /** Concurrent imports and their queue wait (tests shorten them). */
  importLimits?: Partial<ImportLimits>;
  /** How long a heavy read waits for a slot (tests shorten it); the counts come from the config. */
  heavyReadWaitMs?: number;
  /** How often upgrade campaigns take a round (default 2 s). */
  upgradeRoundMs?: number;
  /** How often a follower tries to lead and the leader checks its connection (default 3 s). */
  leaderRetryMs?: number;
  /** false: no overdue-rental timer (tests run `rentals.markOverdue` at a clock of their own). */
  rentalTimer?: boolean;
  /**
   * The endpoint table the routes under /api/v1 must match (default: the contract's ENDPOINTS);
   * tests add the declarations of their own test-only routes.
   */
  endpoints?: readonly AnyEndpoint[];
  /** The SIM card carrier (default: from CARRIER); tests point OneLink at a local server. */
  carrier?: CarrierAdapter;
  /** The card orders' payment provider (default: from PAYMENT_PROVIDER). */
  payments?: PaymentProvider;
  video?: VideoProvider;
  /** Where alarm SMS and calls go (default: from ALARM_NOTIFY_PROVIDER) and how often the job looks (ms). */
  notices?: NoticeProvider;
  noticePollMs?: number;
}

/** Builds the whole server without listening: main.ts listens, tests use `inject`. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 5 * 1024 * 1024,
    // Per-request lines only when debugging; errors are always logged.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ check: config.responseCheck }));

  const db = deps.database.db;
  // Several instances share their events through Redis (decision 0035); one needs nothing more.
  const redisBus: RedisBus | undefined = !deps.bus && config.redisUrl ? createRedisBus(config.redisUrl, app.log, { channel: config.redisChannel }) : undefined;
  const bus = deps.bus ?? redisBus ?? createLocalBus();
  // What several instances count together in Redis (decision 0038): rate limits, alarm mail
  // intervals. A connection of its own; while Redis is down each instance decides alone.
  const sharedRedis = redisBus
    ? new (redisClient())(config.redisUrl!, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectionName: `iot-shared-${redisBus.instanceId.slice(0, 8)}` })
    : undefined;
  sharedRedis?.on('error', () => {});
  const auth = new AuthService(db, bus, {
    captcha: config.captcha,
    sessionTtl: config.sessionTtl,
    lockout: config.loginLockout,
    sessionCacheTtl: config.sessionCacheTtl,
  });
  // The session cache serves only while this process hears every change to sessions, users and
  // roles (migration 0026); its listener reconnects by itself.
  const authChanges =
    config.sessionCacheTtl > 0
      ? await deps.database.listen('auth_changed', {
          notify: (payload) => auth.sessions.heard(payload),
          up: () => auth.sessions.setLive(true),
          down: () => auth.sessions.setLive(false),
        })
      : undefined;
  app.decorate('authSync', async () => {
    await authChanges?.sync();
  });
  const site = new SiteService(db, { tileUrl: config.mapTileUrl ?? null, tileAttribution: config.mapTileAttribution, tileDatum: config.mapTileDatum });
  const logs = new AuditService(db);
  const menus = new MenuService(db);
  const permissions = new PermissionService(db, bus, menus);
  const menuAdmin = new MenuAdminService(db, bus, menus, permissions);
  const roles = new RoleService(db, permissions, menus, bus);
  const users = new UserService(db, auth, permissions, { alarmMailLevel: config.alarmMailMinLevel });
  const admin = new UserAdminService(db, auth, permissions, roles, bus);
  const types = new DeviceTypeService(db, bus);
  const projects = new ProjectService(db, admin, bus);
  const devices = new DeviceService(db, projects, types, bus);
  const search = new SearchService(permissions, devices, projects, admin);
  const home = new HomeService(db);
  const sheets = new DeviceSheetService(db, types, projects, { ...IMPORT_LIMITS, maxRows: config.importMaxRows, ...deps.importLimits });
  const mailer = new AlarmMailer(
    {
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      minLevel: config.alarmMailMinLevel,
      intervalMs: config.alarmMailInterval * 1000,
      consoleUrl: config.consoleUrl,
    },
    app.log,
    sharedRedis && ((key, ms) => sharedRedis.set(`${config.redisChannel}:mail:${key}`, '1', 'PX', ms, 'NX').then((r) => r === 'OK')),
  );
  const n = config.alarmNotify;
  const noticeProvider =
    deps.notices ?? (n.provider.kind === 'aliyun' ? new AliyunNotices(n.provider) : new SimulatedNotices());
  const notifier = new AlarmNotifier(db, app.log, noticeProvider, {
    ...n,
    skipSnPrefix: n.demo ? undefined : DEMO_SN_PREFIX,
    pollMs: deps.noticePollMs ?? 5000,
  });
  notifier.start();
  app.decorate('alarmNotices', notifier);
  const alarms = new AlarmService(db, bus, app.log, mailer, notifier);
  // Nothing is measured unless Prometheus may read it (METRICS_TOKEN).
  const metrics = config.metricsToken ? new Metrics() : undefined;
  // The device path, transport to live event: telemetry/pipeline.ts.
  const telemetry = createTelemetry(
    db,
    bus,
    app.log,
    {
      ingest: {
        ...DEFAULT_INGEST,
        offlineAfterMs: config.deviceOfflineAfter * 1000,
        perDeviceRate: config.deviceRateLimit,
        // PostgreSQL's pool writes several batches at once; PGlite has a single connection.
        writer: { ...DEFAULT_INGEST.writer, concurrency: deps.database.engine === 'postgres' ? 3 : 1 },
        ...deps.ingest,
      },
      engine: {
        ...DEFAULT_ENGINE,
        deviceAlarmLevel: config.deviceAlarmLevel,
        // Several instances (a device's messages may alternate between them through the broker's
        // shared subscription): each batch reads its devices' alarm state under their row locks
        // instead of trusting this process's memory of them (decision 0038).
        // Holds in progress are kept in the database for the same reason.
        ...(config.redisUrl && deps.database.engine === 'postgres' ? { stateTtlMs: 0, sharedHolds: true } : {}),
      },
      retentionDays: config.telemetryRetentionDays,
      observeBatch: metrics?.observeBatch,
    },
    alarms,
  );
  await telemetry.start();
  const { ingest, commands } = telemetry;
  // One instance among those sharing the database runs the once-only timers (decision 0038).
  const leadership = await deps.database.lead('timers', {
    retryMs: deps.leaderRetryMs,
    log: (leading, why) => app.log.info({ leading, why }, leading ? 'this instance now leads (runs the once-only timers)' : 'this instance no longer leads'),
  });
  app.decorate('leadership', leadership);
  const deviceData = new DeviceDataService(db, devices);
  const deviceDetails = new DeviceDetailService(db, devices, types, deviceData, commands);
  const fences = new FenceService(db, devices, commands, telemetry.fences, alarms, bus, app.log);
  const upgradeEngine = new CampaignEngine(db, commands, bus, app.log);
  const campaigns = new CampaignService(db, upgradeEngine, { consoleUrl: config.consoleUrl });
  app.decorate('upgradeEngine', upgradeEngine);
  const brokerAuth = new BrokerAuthService(ingest, {
    secret: config.brokerAuthSecret,
    serverUsername: config.mqttUsername,
    serverPassword: config.mqttPassword,
  });
  const cards = new CardService(db, devices, projects, deps.carrier ?? carrierFrom(config.carrier), {
    cacheTtlMs: config.carrierCacheTtl * 1000,
  });
  const cardSheets = new CardSheetService(db, projects, sheets);
  const prices = new PriceService(db);
  const orders = new OrderService(db, cards, prices, deps.payments ?? paymentsFrom(config.payment), app.log, {
    payTimeoutMs: config.orderPayTimeout * 1000,
  });
  const cardJobs = new CardJobs(db, app.log, orders, mailer, { noticeDays: config.cardExpiryNoticeDays, consoleUrl: config.consoleUrl });
  const stores = new StoreService(db, devices, admin);
  const rentals = new RentalService(db, stores, devices, commands);
  const storeSheets = new StoreSheetService(db, sheets);
  const rentalJobs = new RentalJobs(rentals, app.log);
  app.decorate('rentals', rentals);
  const logRetention = new Retention(db, app.log, { name: 'operation log', days: config.operationLogRetentionDays, prune: pruneOperationLogs });
  const noticeRetention = new Retention(db, app.log, { name: 'alarm notice', days: config.alarmNoticeRetentionDays, prune: pruneNotices });
  const trendRetention = new Retention(db, app.log, { name: 'alarm trend counter', days: TREND_COUNTER_DAYS, prune: pruneTrendCounters });
  const video = new VideoService(db, devices, deps.video ?? (config.video.kind === 'ezviz' ? new EzvizVideo(config.video) : new SimulatedVideo()));
  const firmware = new FirmwareService(db, types, new FirmwareStore(config.dataDir), config.firmwareMaxBytes, app.log);
  const httpUplink = new HttpUplink(ingest, commands);
  const external = new ExternalService(db, app.log, { dataDir: config.dataDir, consoleUrl: config.consoleUrl });
  // Every instance: command expiry and external upgrade timeouts are single conditional UPDATEs
  // (a row ends once whoever runs them), also run by the reads that show them.
  external.start();
  const leaderJobs = whileLeading(leadership, app.log, [
    { name: 'partition upkeep', start: () => telemetry.partitions.start(), stop: () => telemetry.partitions.stop() },
    { name: 'history rollups', start: () => telemetry.rollups.start(), stop: () => telemetry.rollups.stop() },
    { name: 'card jobs', start: () => cardJobs.start(), stop: () => cardJobs.stop() },
    { name: 'operation log retention', start: () => logRetention.start(), stop: () => logRetention.stop() },
    { name: 'alarm notice retention', start: () => noticeRetention.start(), stop: () => noticeRetention.stop() },
    { name: 'alarm trend counter retention', start: () => trendRetention.start(), stop: () => trendRetention.stop() },
    { name: 'upgrade rounds', start: () => upgradeEngine.start(deps.upgradeRoundMs), stop: () => upgradeEngine.stop() },
    ...(deps.rentalTimer === false ? [] : [{ name: 'overdue rentals', start: () => rentalJobs.start(), stop: () => rentalJobs.stop() }]),
  ]);
  app.decorate('cardJobs', cardJobs);
  app.decorate('externalDevices', external);
  app.decorate('ingest', ingest);
  app.decorate('commands', commands);
  app.decorate('partitions', telemetry.partitions);
  app.decorate('rollups', telemetry.rollups);
  app.decorate('alarmEngine', telemetry.alarms);
  app.decorate('alarms', alarms);
  app.decorate('heavyReads', new HeavyReads({ ...config.heavyReads, waitMs: deps.heavyReadWaitMs ?? HEAVY_READ_WAIT_MS }));

  await app.register(envelopePlugin);
  await app.register(inputPlugin);
  // Large answers compressed on the way out (a page of 100 devices, the fleet map's positions,
  // a history): brotli at a fast level, else gzip. The small ones, most requests, are sent as
  // they are; the console's files come with their build copies' encoding and pass through
  // (decision 0044). Request bodies are never inflated here: uploads keep their own bounds.
  await app.register(compress, {
    threshold: COMPRESS_MIN_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    globalDecompression: false,
  });
  // Security headers on every answer. helmet's middleware is built once: @fastify/helmet built
  // it again for every request (its CSP directives parsed each time, 2-3 % of a list's CPU).
  const setSecurityHeaders = helmet(securityHeaders(config));
  app.addHook('onRequest', (request, reply, done) => setSecurityHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined)));
  if (metrics && config.metricsToken) {
    metrics.watch({
      ingest: ingest.counts,
      queuedRows: () => ingest.queuedRows,
      waitingMessages: () => ingest.waitingMessages,
      liveSockets: () => app.realtime.connections(),
      alarms: () => alarms.gauges(),
      leading: () => leadership.leading,
    });
    // Before every route: its hook times the requests of the routes registered after it.
    await app.register(metricsPlugin, { metrics, token: config.metricsToken });
  }
  await app.register(swagger, {
    openapi: {
      info: { title: 'IoT device management console API', version: '1' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: openapiTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  // One session's (and one address's login) requests counted over all instances (INCR + PEXPIRE,
  // a fixed window); while Redis is down the limits are skipped: the instance keeps serving.
  await app.register(rateLimit, {
    global: false,
    ...(sharedRedis ? { redis: sharedRedis, nameSpace: `${config.redisChannel}:rate:`, skipOnError: true } : {}),
  });
  // The largest client message is a follow request of MAX_LIVE_REQUEST_IDS ids (about 11 KB).
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  await app.register(multipart, { limits: { fileSize: UPLOAD_MAX_MB * 1024 * 1024, files: 1, fields: 10 } });
  await app.register(authPlugin, { auth, permissions, perSessionPerMinute: config.apiRateLimit });
  await app.register(auditPlugin, { record: (caller, request) => auditRequest(db, caller, request) });
  await app.register(endpointParityPlugin, { endpoints: deps.endpoints });
  await app.register(realtimePlugin, {
    auth,
    bus,
    timing: deps.liveTiming,
    limits: deps.liveLimits,
    // Live values follow the REST rule of /device/basic: the user sees the device and may read devices.
    visibleDevices: async (ctx, ids) => ((await permissions.hasAny(ctx, ['device:list', 'device:detail'])) ? devices.visibleIds(ctx, ids) : []),
    seesAlarms: (ctx) => permissions.hasAny(ctx, ['alarm:list', 'device:detail']),
    home: { sees: (ctx) => permissions.hasAny(ctx, ['home:view']), visibleDevices: (ctx, ids) => devices.visibleIds(ctx, ids) },
  });

  await app.register(
    async (api) => {
      await api.register(siteRoutes, { site });
      await api.register(authRoutes, { auth, loginsPerMinute: config.loginRateLimit });
      await api.register(userRoutes, { users, menus });
      await api.register(userAdminRoutes, { admin });
      await api.register(roleRoutes, { roles });
      await api.register(permissionRoutes, { permissions, menuAdmin });
      await api.register(menuRoutes, { menus, menuAdmin });
      await api.register(auditRoutes, { logs });
      await api.register(clientErrorRoutes, { clientErrors: new ClientErrorService(db) });
      await api.register(deviceTypeRoutes, { types });
      await api.register(projectRoutes, { projects, weather: new WeatherService({ baseUrl: config.weatherUrl }, app.log) });
      await api.register(deviceRoutes, { devices });
      await api.register(deviceSheetRoutes, { sheets });
      await api.register(deviceDataRoutes, { data: deviceData, uplink: httpUplink });
      await api.register(deviceDetailRoutes, { details: deviceDetails });
      await api.register(fenceRoutes, { fences });
      await api.register(campaignRoutes, { campaigns });
      await api.register(externalRoutes, { external });
      await api.register(trackRoutes, { tracks: new TrackService(db, devices) });
      await api.register(brokerRoutes, { broker: brokerAuth });
      await api.register(alarmRoutes, { alarms });
      await api.register(cardRoutes, { cards, sheets: cardSheets });
      await api.register(orderRoutes, { orders });
      await api.register(priceRoutes, { prices });
      await api.register(videoRoutes, { video });
      await api.register(storeRoutes, { stores, sheets: storeSheets });
      await api.register(rentalRoutes, { rentals, sheets: storeSheets });
      await api.register(firmwareRoutes, { firmware, uplink: httpUplink, maxBytes: config.firmwareMaxBytes });
      await api.register(searchRoutes, { search });
      await api.register(homeRoutes, { home });
      await api.register(mapRoutes, { map: new MapService(db) });
      await api.register(homeBatteryRoutes, { battery: new HomeBatteryService(db) });
    },
    { prefix: API_PREFIX },
  );
  // Redis down does not stop the instance (it serves its own devices and sockets), but the load
  // balancer should prefer instances whose browsers see every instance's events.
  await app.register(healthPlugin, { checks: { database: () => ping(db), ...(redisBus ? { redis: () => redisBus.ping() } : {}) }, leading: () => leadership.leading });
  await app.register(webPlugin, { dist: config.webDist });

  app.addHook('onClose', async () => {
    await leaderJobs.stop();
    await leadership.stop();
    await notifier.stop();
    upgradeEngine.close();
    external.stop();
    await telemetry.stop();
    mailer.close();
    await bus.close();
    if (sharedRedis?.status === 'ready') await sharedRedis.quit().catch(() => sharedRedis.disconnect());
    else sharedRedis?.disconnect();
    await authChanges?.stop();
  });
  return app;
}
