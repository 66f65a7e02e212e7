import type { FastifyBaseLogger } from 'fastify';
import {
  ALARM_EXPORT_MAX,
  ALARM_SOURCES,
  FENCE_ALARM_NAMES,
  type AlarmSource,
  type AlarmBell,
  type AlarmDto,
  type AlarmGroup,
  type AlarmNoticeDto,
  type AlarmState,
  type EndpointParsedBody,
  type EndpointParsedQuery,
  type Language,
  type Page,
  type alarmApi,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import type { EventBus } from '../../lib/events.js';
import { invalid, notFound } from '../../lib/errors.js';
import { scopeOf } from '../../lib/scope.js';
import { writeSheet } from '../../lib/sheet.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { AlarmMailer } from './alarm.mail.js';
import type { AlarmNotifier } from './notice.service.js';
import * as repo from './alarm.repo.js';

export type AlarmListQuery = EndpointParsedQuery<typeof alarmApi.list>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toDto(r: repo.AlarmRow): AlarmDto {
  return {
    id: r.id,
    deviceId: r.deviceId,
    deviceName: r.deviceName,
    sn: r.sn,
    projectId: r.projectId,
    projectName: r.projectName,
    typeId: r.typeId,
    source: (ALARM_SOURCES as readonly string[]).includes(r.source) ? (r.source as AlarmSource) : 'rule',
    semaphoreId: r.semaphoreId,
    // A fence alarm is about no parameter: it is named for what it is.
    name: r.name ?? (r.source === 'fence' ? FENCE_ALARM_NAMES.zh : ''),
    nameEn: r.nameEn ?? (r.source === 'fence' ? FENCE_ALARM_NAMES.en : ''),
    nameEs: r.nameEs ?? (r.source === 'fence' ? FENCE_ALARM_NAMES.es : ''),
    nameJa: r.nameJa ?? (r.source === 'fence' ? FENCE_ALARM_NAMES.ja : ''),
    message: r.message,
    messageEn: r.messageEn,
    messageEs: r.messageEs,
    messageJa: r.messageJa,
    value: r.value,
    level: r.level,
    startedAt: iso(r.startedAt)!,
    reportedAt: iso(r.reportedAt)!,
    endedAt: iso(r.endedAt),
    state: r.state as AlarmState,
    processedAt: iso(r.processedAt),
    processedBy: r.processedBy,
    note: r.note,
  };
}

const HEADERS: Record<Language, string[]> = {
  zh: ['编号', '设备名称', 'SN', '项目', '信号量ID', '名称', '告警信息', '数值', '告警级别', '告警时间', '上报时间', '结束时间', '状态', '处理时间', '处理人', '备注'],
  en: ['ID', 'Device', 'SN', 'Project', 'Semaphore ID', 'Name', 'Message', 'Value', 'Level', 'Warning date', 'Reporting time', 'Ended at', 'State', 'Processed at', 'Processed by', 'Note'],
  es: ['ID', 'Dispositivo', 'SN', 'Proyecto', 'ID de semáforo', 'Nombre', 'Mensaje', 'Valor', 'Nivel', 'Fecha de alarma', 'Hora de informe', 'Fin', 'Estado', 'Procesada el', 'Procesada por', 'Nota'],
  ja: ['ID', 'デバイス', 'SN', 'プロジェクト', 'セマフォID', '名称', 'メッセージ', '値', 'レベル', '警告日時', '報告時刻', '終了時刻', '状態', '処理日時', '処理者', 'メモ'],
};
const STATES: Record<Language, Record<AlarmState, string>> = {
  zh: { untreated: '未处理', processed: '已处理', ignored: '无需处理' },
  en: { untreated: 'Untreated', processed: 'Processed', ignored: 'No processing required' },
  es: { untreated: 'Sin tratar', processed: 'Procesada', ignored: 'No requiere procesamiento' },
  ja: { untreated: '未処理', processed: '処理済み', ignored: '処理不要' },
};
const pick = (lang: Language, zh: string, en: string, es: string, ja: string) =>
  (lang === 'zh' ? zh : lang === 'es' ? es || en : lang === 'ja' ? ja || en : en) || zh || en;

/**
 * Alarms: what the alarm stage of the telemetry pipeline started or ended told to the live channel
 * and by e-mail, the lists and counts of the alarm pages, processing (scoped to the caller's
 * devices, in the operation log).
 */
export class AlarmService {
  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly log: FastifyBaseLogger,
    private readonly mailer?: AlarmMailer,
    private readonly notifier?: AlarmNotifier,
  ) {}

  /**
   * The alarms a committed ingestion batch started or ended (the alarm stage, telemetry/
   * alarm.engine.ts) go to the live channel, the mailer and the phone notices.
   */
  announce(changes: { event: 'started' | 'ended'; id: number }[]): void {
    if (changes.length === 0) return;
    void this.tell(changes).catch((err) => this.log.error({ err }, 'alarm announcement failed'));
  }

  private async tell(changes: { event: 'started' | 'ended'; id: number }[]) {
    const rows = new Map((await repo.alarmsByIds(this.db, changes.map((c) => c.id))).map((r) => [r.id, toDto(r)]));
    const started = changes.filter((c) => c.event === 'started').flatMap((c) => rows.get(c.id) ?? []);
    const ended = changes.filter((c) => c.event === 'ended').flatMap((c) => rows.get(c.id) ?? []);
    if (started.length > 0) this.bus.emit('alarms.changed', { event: 'started', alarms: started });
    if (ended.length > 0) this.bus.emit('alarms.changed', { event: 'ended', alarms: ended });
    // Queued before the mails: an SMTP server that hangs does not delay a call.
    if (this.notifier && started.length > 0) {
      await this.notifier.queue(started).catch((err) => this.log.error({ err }, 'alarm SMS and calls not queued'));
    }
    if (this.mailer) {
      for (const a of started) {
        // Each user's own mail level decides; the rate limit counts only alarms someone is sent.
        const recipients = await repo.mailRecipients(this.db, a.deviceId, a.level, this.mailer.opts.minLevel);
        if (recipients.length === 0 || !(await this.mailer.take(a))) continue;
        await this.mailer.send(a, recipients);
      }
    }
  }

  // ---- reads ------------------------------------------------------------------------------------

  async list(ctx: AuthContext, q: AlarmListQuery): Promise<Page<AlarmDto>> {
    const res = await repo.listAlarms(this.db, { ...q, scopePath: scopeOf(ctx) });
    return { total: res.total, exact: res.exact, next: res.next, items: res.items.map(toDto) };
  }

  async groups(ctx: AuthContext, f: EndpointParsedQuery<typeof alarmApi.groups>): Promise<AlarmGroup> {
    const rows = await repo.alarmGroups(this.db, { ...f, scopePath: scopeOf(ctx) });
    const byLevel = new Map<number, number>();
    const byState = new Map<AlarmState, number>();
    let total = 0;
    let active = 0;
    for (const r of rows) {
      total += r.n;
      if (r.active) active += r.n;
      byLevel.set(r.level, (byLevel.get(r.level) ?? 0) + r.n);
      byState.set(r.state as AlarmState, (byState.get(r.state as AlarmState) ?? 0) + r.n);
    }
    return {
      total,
      active,
      byLevel: [1, 2, 3, 4].map((level) => ({ level, count: byLevel.get(level) ?? 0 })),
      byState: (['untreated', 'processed', 'ignored'] as const).map((state) => ({ state, count: byState.get(state) ?? 0 })),
    };
  }

  /** Active and untreated alarms per level over the whole fleet (for /metrics, no caller's scope). */
  async gauges(): Promise<{ active: Map<number, number>; untreated: Map<number, number> }> {
    const out = { active: new Map<number, number>(), untreated: new Map<number, number>() };
    for (const r of await repo.alarmGauges(this.db)) out[r.kind].set(Number(r.level), Number(r.n));
    return out;
  }

  async bell(ctx: AuthContext): Promise<AlarmBell> {
    const res = await repo.listAlarms(this.db, {
      scopePath: scopeOf(ctx), state: 'untreated', sort: 'startedAt', order: 'desc', page: 1, limit: 5,
    });
    return { untreated: res.total, latest: res.items.map(toDto) };
  }

  async export(ctx: AuthContext, q: Omit<AlarmListQuery, 'page' | 'limit'>, lang: Language): Promise<Buffer> {
    const res = await repo.listAlarms(this.db, { ...q, scopePath: scopeOf(ctx), page: 1, limit: ALARM_EXPORT_MAX + 1 });
    if (res.items.length > ALARM_EXPORT_MAX) throw invalid('from', 'alarmExportTooMany', { max: ALARM_EXPORT_MAX });
    const rows = res.items.map(toDto).map((a) => [
      a.id, a.deviceName, a.sn, a.projectName ?? '', a.semaphoreId, pick(lang, a.name, a.nameEn, a.nameEs, a.nameJa),
      pick(lang, a.message, a.messageEn, a.messageEs, a.messageJa), a.value, a.level, a.startedAt, a.reportedAt,
      a.endedAt ?? '', STATES[lang][a.state], a.processedAt ?? '', a.processedBy ?? '', a.note,
    ]);
    return writeSheet('alarms', [HEADERS[lang], ...rows]);
  }

  /** The SMS and calls of an alarm the caller may see (§ issue #39); unknown or unseen: not found. */
  async notices(ctx: AuthContext, alarmId: number): Promise<AlarmNoticeDto[]> {
    const scope = scopeOf(ctx);
    if ((await repo.visibleAlarmIds(this.db, [alarmId], scope)).length === 0) throw notFound('alarmsNotFound', { ids: String(alarmId) });
    return this.notifier ? this.notifier.list(alarmId, scope) : [];
  }

  // ---- handling ---------------------------------------------------------------------------------

  /** Processes alarms of devices the caller may see; any other id refuses the whole request. */
  async process(actor: Actor, body: EndpointParsedBody<typeof alarmApi.process>): Promise<number> {
    const ids = [...new Set(body.ids)];
    const visible = new Set(await repo.visibleAlarmIds(this.db, ids, scopeOf(actor)));
    const missing = ids.filter((id) => !visible.has(id));
    if (missing.length > 0) throw notFound('alarmsNotFound', { ids: missing.slice(0, 20).join(', ') });
    const done = await this.db.transaction(async (tx) => {
      const n = await repo.processAlarms(tx, ids, { state: body.state, note: body.note, userId: actor.userId, username: actor.username });
      await audit(tx, actor, { entityId: ids.length === 1 ? ids[0] : ids.slice(0, 20).join(','), summary: { ids, state: body.state, note: body.note } });
      return n;
    });
    const rows = (await repo.alarmsByIds(this.db, done)).map(toDto);
    if (rows.length > 0) this.bus.emit('alarms.changed', { event: 'processed', alarms: rows });
    return done.length;
  }
}
