import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Open-Meteo: answers GET /v1/forecast as the real API does (the fields the console asks
 * for), counts the requests, or refuses with 500 while `failing`. No test reaches the real one.
 */
export class FakeOpenMeteo {
  readonly requests: URLSearchParams[] = [];
  failing = false;
  private readonly server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname !== '/v1/forecast') {
      res.statusCode = 404;
      return res.end('{}');
    }
    this.requests.push(url.searchParams);
    res.setHeader('content-type', 'application/json');
    if (this.failing) {
      res.statusCode = 500;
      return res.end(JSON.stringify({ error: true, reason: 'down for the test' }));
    }
    const lat = Number(url.searchParams.get('latitude'));
    res.end(
      JSON.stringify({
        latitude: lat,
        longitude: Number(url.searchParams.get('longitude')),
        timezone: 'Asia/Shanghai',
        current: { time: '2026-11-27T10:00', temperature_2m: 21.5, weather_code: 3, wind_speed_10m: 12.3 },
        daily: {
          time: ['2026-11-27', '2026-11-28', '2026-11-29'],
          weather_code: [3, 61, 0],
          temperature_2m_max: [24.1, 19.8, 22],
          temperature_2m_min: [15.2, 13.9, 12.5],
          precipitation_sum: [0, 7.4, 0],
        },
      }),
    );
  });

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}
