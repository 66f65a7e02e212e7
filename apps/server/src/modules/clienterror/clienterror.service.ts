import { CLIENT_ERROR_LIMITS, type ClientErrorDto, type EndpointParsedBody, type Language, type Page, type clientErrorApi } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { invalid } from '../../lib/errors.js';
import { writeSheet } from '../../lib/sheet.js';
import * as repo from './clienterror.repo.js';

type Report = EndpointParsedBody<typeof clientErrorApi.report>;

/** Reports are kept this many days; each report removes a few older ones. */
const KEEP_DAYS = 30;

const HEADERS: Record<Language, string[]> = {
  zh: ['时间', '类型', '信息', '页面', '版本', '浏览器', '调用栈'],
  en: ['Time', 'Kind', 'Message', 'Page', 'Version', 'Browser', 'Stack'],
  es: ['Hora', 'Tipo', 'Mensaje', 'Página', 'Versión', 'Navegador', 'Pila'],
  ja: ['時刻', '種類', 'メッセージ', 'ページ', 'バージョン', 'ブラウザー', 'スタック'],
};

/** The route's path only: a query or fragment may carry what the user typed. */
export function pathOf(route: string): string {
  return route.split(/[?#]/)[0]!.slice(0, CLIENT_ERROR_LIMITS.route);
}

const toDto = (r: repo.ClientErrorRow): ClientErrorDto => ({
  id: r.id,
  kind: r.kind as ClientErrorDto['kind'],
  message: r.message,
  stack: r.stack,
  route: r.route,
  version: r.version,
  userAgent: r.userAgent,
  createdAt: r.createdAt.toISOString(),
});

/**
 * Errors the console hit in browsers (issue #39; §9 "error log collected in production"). A
 * report carries no user and no address (the route's path, the build, the browser); the route is
 * rate limited per address, each field capped by the contract.
 */
export class ClientErrorService {
  constructor(private readonly db: Db) {}

  async report(body: Report, userAgent: string | undefined): Promise<void> {
    await repo.insertClientError(this.db, {
      kind: body.kind,
      message: body.message,
      stack: body.stack,
      route: pathOf(body.route),
      version: body.version,
      userAgent: (userAgent ?? '').slice(0, CLIENT_ERROR_LIMITS.userAgent),
    });
    await repo.pruneClientErrors(this.db, KEEP_DAYS, 100);
  }

  async list(q: repo.ClientErrorFilter): Promise<Page<ClientErrorDto>> {
    const res = await repo.listClientErrors(this.db, q);
    return { ...res, items: res.items.map(toDto) };
  }

  async export(q: Omit<repo.ClientErrorFilter, 'page' | 'limit' | 'after'>, lang: Language): Promise<Buffer> {
    const rows = await repo.exportClientErrors(this.db, q, CLIENT_ERROR_LIMITS.exportMax + 1);
    if (rows.length > CLIENT_ERROR_LIMITS.exportMax) throw invalid('from', 'clientErrorExportTooMany', { max: CLIENT_ERROR_LIMITS.exportMax });
    const body = rows.map(toDto).map((e) => [e.createdAt, e.kind, e.message, e.route, e.version, e.userAgent, e.stack]);
    return writeSheet('errors', [HEADERS[lang], ...body]);
  }
}
