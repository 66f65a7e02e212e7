import type { FastifyBaseLogger } from 'fastify';
import type { ProjectWeather } from '@iot/contract';

type Forecast = NonNullable<ProjectWeather['forecast']>;

export interface WeatherOptions {
  /** Open-Meteo's base (WEATHER_URL, default https://api.open-meteo.com); undefined: off. */
  baseUrl?: string;
  /** How long a forecast is reused (1 h) and how long a failure is (5 min: no timeout on every page). */
  ttlMs?: number;
  failureTtlMs?: number;
  timeoutMs?: number;
  now?: () => number;
}

/** A position as cached: rounded to 0.01° (about 1 km), so a site's projects share a forecast. */
const round = (v: number) => Math.round(v * 100) / 100;
const numOr = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const intOr = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const CACHE_MAX = 10_000;

/**
 * Weather forecasts from Open-Meteo (keyless) at project positions (issue #39). Kept in memory per
 * rounded position for an hour, failures for 5 minutes, and one request in flight per position:
 * a forecast is public, stale within the hour and cheap to fetch again, so losing the cache on a
 * restart costs one request per position, while a table would add writes for nothing (each
 * instance fetching its own copy stays far under the provider's free limit). The console works
 * the same without it: an unreachable provider answers `unavailable`.
 */
export class WeatherService {
  private readonly cache = new Map<string, { until: number; forecast: Forecast | null; pending?: Promise<Forecast | null> }>();
  private readonly now: () => number;

  constructor(
    private readonly opts: WeatherOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.now = opts.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.opts.baseUrl !== undefined;
  }

  /** The forecast for a project, as the route answers it. */
  async forProject(p: { weather: boolean; lat: number | null; lng: number | null }): Promise<ProjectWeather> {
    if (!p.weather || !this.enabled) return { state: 'off', forecast: null };
    if (p.lat === null || p.lng === null) return { state: 'noPosition', forecast: null };
    const forecast = await this.at(p.lat, p.lng);
    return forecast ? { state: 'ok', forecast } : { state: 'unavailable', forecast: null };
  }

  /** The cached forecast at a position, fetched when missing or older than the hour. */
  async at(lat: number, lng: number): Promise<Forecast | null> {
    const [rlat, rlng] = [round(lat), round(lng)];
    const key = `${rlat},${rlng}`;
    const hit = this.cache.get(key);
    if (hit?.pending) return hit.pending;
    if (hit && hit.until > this.now()) return hit.forecast;
    const pending = this.fetch(rlat, rlng);
    this.cache.set(key, { until: 0, forecast: null, pending });
    const forecast = await pending;
    if (this.cache.size > CACHE_MAX) {
      for (const [k, v] of this.cache) if (!v.pending && v.until <= this.now()) this.cache.delete(k);
    }
    this.cache.set(key, { until: this.now() + (forecast ? (this.opts.ttlMs ?? 3_600_000) : (this.opts.failureTtlMs ?? 300_000)), forecast });
    return forecast;
  }

  private async fetch(lat: number, lng: number): Promise<Forecast | null> {
    const q = new URLSearchParams({
      latitude: String(lat),
      longitude: String(lng),
      current: 'temperature_2m,weather_code,wind_speed_10m',
      daily: 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum',
      timezone: 'auto',
      forecast_days: '3',
    });
    try {
      const res = await fetch(`${this.opts.baseUrl!.replace(/\/$/, '')}/v1/forecast?${q}`, {
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 3000),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const a = (await res.json()) as {
        current?: Record<string, unknown>;
        daily?: Record<string, unknown[] | undefined>;
      };
      const d = a.daily ?? {};
      const dates = Array.isArray(d.time) ? d.time : [];
      return {
        lat,
        lng,
        fetchedAt: new Date(this.now()).toISOString(),
        current: {
          temperature: numOr(a.current?.temperature_2m),
          weatherCode: intOr(a.current?.weather_code),
          windSpeed: numOr(a.current?.wind_speed_10m),
        },
        daily: dates.slice(0, 7).map((date, i) => ({
          date: String(date),
          weatherCode: intOr(d.weather_code?.[i]),
          tempMax: numOr(d.temperature_2m_max?.[i]),
          tempMin: numOr(d.temperature_2m_min?.[i]),
          precipitation: numOr(d.precipitation_sum?.[i]),
        })),
      };
    } catch (err) {
      this.log.warn({ err: (err as Error).message, lat, lng }, 'weather forecast unavailable');
      return null;
    }
  }
}
