import { ConsoleApi, provision, readSecrets, writeSecrets, type SecretsFile } from './api.js';
import { parseArgs, USAGE, UsageError, type SimulatorArgs } from './args.js';
import { reportEvery, startFleet, type Fleet } from './fleet.js';

/** `npm run simulate -- --devices N --rate R …` (see USAGE). */
async function main() {
  let args: SimulatorArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }

  let secrets: SecretsFile;
  if (args.secrets) {
    secrets = await readSecrets(args.secrets);
    if (process.argv.includes('--devices')) secrets.devices = secrets.devices.slice(0, args.devices);
    console.log(`${secrets.devices.length} devices from ${args.secrets}`);
  } else {
    const api = new ConsoleApi(args.api, args.token);
    if (!args.token) {
      if (!args.password) {
        throw new UsageError('a console login is needed to register the devices: --password (or SIM_PASSWORD), --token, or --secrets FILE');
      }
      await api.login(args.user, args.password);
    }
    const p = await provision(api, { count: args.devices, prefix: args.prefix, projectName: args.project, centre: args.centre, log: console.log });
    secrets = p;
    console.log(`project "${args.project}": ${p.created} devices created, ${p.renewed} given a new secret`);
    if (args.saveSecrets) {
      await writeSecrets(args.saveSecrets, secrets);
      console.log(`secrets written to ${args.saveSecrets}`);
    }
  }
  if (secrets.devices.length === 0) throw new UsageError('no devices to run');

  const perDevice = args.rate / secrets.devices.length;
  if (perDevice > 20) {
    console.warn(`warning: ${perDevice.toFixed(1)} messages/s per device is more than the simulator sends (and the console's default DEVICE_RATE_LIMIT of 20): each device sends 20/s at most`);
  }
  const target = args.transport === 'mqtt' ? args.url : `${args.api} (HTTP)`;
  console.log(
    `${secrets.devices.length} devices → ${target}, ${args.rate} messages/s (each device every ${(1 / perDevice).toFixed(1)} s)` +
      `${args.speedup !== 1 ? `, time ×${args.speedup}` : ''}; Ctrl-C stops`,
  );

  const fleet: Fleet = await startFleet({
    devices: secrets.devices,
    rate: args.rate,
    transport: args.transport === 'mqtt' ? { kind: 'mqtt', url: args.url } : { kind: 'http', api: args.api },
    track: secrets.track,
    centre: args.centre,
    timeScale: args.speedup,
    faultsPerHour: args.faults,
    wanderOutAfterMs: args.wanderOut === undefined ? undefined : args.wanderOut * 1000,
    upgradeFailRate: args.upgradeFail,
    upgradeSilentRate: args.upgradeSilent,
    consoleOrigin: args.api,
    log: (line) => console.warn(line),
  });
  if (fleet.stats().refused === secrets.devices.length) {
    await fleet.stop();
    throw new Error(
      'the console refused every device (wrong SN or secret)' +
        (args.secrets ? `: ${args.secrets} is stale; register the devices again (drop --secrets)` : ''),
    );
  }
  const stopReport = reportEvery(fleet, 5000, (line) => console.log(line));

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) {
      console.error('forced exit');
      process.exit(1);
    }
    stopping = true;
    stopReport();
    console.log(`${why}: disconnecting ${secrets.devices.length} devices…`);
    await fleet.stop();
    const s = fleet.stats();
    console.log(`done: ${s.sent} sent, ${s.acked} acknowledged, ${s.errors} errors, ${s.commands} commands answered`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  if (args.duration) setTimeout(() => void stop(`${args.duration} s elapsed`), args.duration * 1000);
}

main().catch((err: unknown) => {
  console.error(err instanceof UsageError ? `${err.message}\n(npm run simulate -- --help)` : `simulator: ${(err as Error).message ?? String(err)}`);
  process.exit(1);
});
