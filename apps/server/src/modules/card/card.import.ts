import {
  CARD_CARRIERS,
  CARD_EXPORT_COLUMNS,
  CARD_EXPORT_MAX,
  CARD_SHEET_COLUMNS,
  CARD_STATUSES,
  cardFieldsSchema,
  type CardExportKey,
  type CardSheetKey,
  type ImportError,
  type ImportMode,
  type ImportReport,
  type Language,
} from '@iot/contract';
import { allowLongWork, type Db } from '../../db/client.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { conflict, invalid } from '../../lib/errors.js';
import { scopeOf } from '../../lib/scope.js';
import { restoreCell, writeSheet } from '../../lib/sheet.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { ProjectService } from '../project/project.service.js';
import { cellError, checkSheetFile, importOutcome, issueRefusal, sheetRows, type ImportSlots } from '../../lib/sheet-refusals.js';
import * as repo from './card.repo.js';
import { toCardDto, type CardListQuery } from './card.service.js';

const text = (v: unknown) => (v === null || v === undefined ? '' : String(restoreCell(v)).trim());

/** A date cell: YYYY-MM-DD text, or a spreadsheet serial day number. */
function dateCell(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) {
    // Serial days 1 … 2,958,465 are 1900-01-01 … 9999-12-31; any other number is left as text for
    // the row's check to refuse (a Date past year 275,760 would throw here).
    if (v < 1 || v > 2_958_465) return String(v);
    return new Date(Math.round((v - 25569) * 86_400_000)).toISOString().slice(0, 10);
  }
  const s = text(v).replace(/\//g, '-');
  if (!s) return null;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  return m ? `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}` : s;
}


/** An enum cell: its key, or its translation as the export writes it is not needed: keys only. */
const enumCell = <T extends string>(v: unknown, values: readonly T[], fallback: T): T | string => {
  const s = text(v);
  if (!s) return fallback;
  return values.find((x) => x.toLowerCase() === s.toLowerCase()) ?? s;
};


/** Bulk import of SIM cards from .xlsx/.xls and export to .xlsx, as the device registry does. */
export class CardSheetService {
  constructor(
    private readonly db: Db,
    private readonly projects: ProjectService,
    /** The device import's slots and row limit, shared by every sheet import of the process. */
    private readonly imports: ImportSlots,
  ) {}

  template(lang: Language): Buffer {
    return writeSheet('sim-cards', [CARD_SHEET_COLUMNS.map((c) => c[lang])]);
  }

  async import(actor: Actor, file: { filename: string; data: Buffer }, mode: ImportMode, dryRun: boolean): Promise<ImportReport> {
    checkSheetFile(file);
    return this.imports.withImportSlot(() => this.importSheet(actor, file, mode, dryRun));
  }

  private async importSheet(actor: Actor, file: { filename: string; data: Buffer }, mode: ImportMode, dryRun: boolean): Promise<ImportReport> {
    const { keys, rows } = await sheetRows(this.imports, file.data, CARD_SHEET_COLUMNS);

    const projects = await this.projects.ownedBy(actor);
    const byName = new Map<string, { id: number; ownerPath: string }[]>();
    for (const p of projects) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);

    const errors: ImportError[] = [];
    const valid: { row: number; card: ReturnType<typeof cardFieldsSchema.parse>; ownerPath: string }[] = [];
    const seen = new Map<string, number>();
    const numbersSeen = { msisdn: new Set<string>(), imsi: new Set<string>() };
    for (let i = 0; i < rows.length; i++) {
      // 20,000 rows: give the event loop back every few hundred rows, as the device import does.
      if (i > 0 && i % 250 === 0) await new Promise((r) => setImmediate(r));
      const cells = rows[i]!;
      const row = i + 2;
      const get = (k: CardSheetKey) => {
        const idx = keys.indexOf(k);
        return idx < 0 ? '' : cells[idx];
      };
      const rowErrors: ImportError[] = [];
      let project: { id: number; ownerPath: string } | undefined;
      const projectName = text(get('project'));
      if (projectName) {
        const found = byName.get(projectName) ?? [];
        if (found.length === 0) rowErrors.push(cellError(row, 'project', 'unknownProjectName', { name: projectName }));
        else if (found.length > 1) rowErrors.push(cellError(row, 'project', 'ambiguousProjectName', { name: projectName }));
        else project = found[0];
      }
      const num = (k: CardSheetKey) => (text(get(k)) === '' ? 0 : Number(text(get(k))));
      const candidate = {
        iccid: text(get('iccid')),
        msisdn: text(get('msisdn')),
        imsi: text(get('imsi')),
        carrier: enumCell(get('carrier'), CARD_CARRIERS, 'chinaMobile'),
        plan: text(get('plan')),
        status: enumCell(get('status'), CARD_STATUSES, 'active'),
        activatedAt: dateCell(get('activatedAt')),
        expiresAt: dateCell(get('expiresAt')),
        dataAllowanceMb: num('dataAllowanceMb'),
        voiceAllowanceMin: num('voiceAllowanceMin'),
        groupId: text(get('groupId')),
        projectId: project?.id ?? null,
        remarks: text(get('remarks')),
      };
      const parsed = cardFieldsSchema.safeParse(candidate);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const column = String(issue.path[0] ?? '');
          const refusal = column === 'activatedAt' || column === 'expiresAt' ? { reason: 'dateRequired' as const } : issueRefusal(issue);
          rowErrors.push(cellError(row, column, refusal.reason, refusal.params));
        }
      }
      if (candidate.iccid) {
        const first = seen.get(candidate.iccid);
        if (first) rowErrors.push(cellError(row, 'iccid', 'duplicateIccidRow', { row: first }));
        else seen.set(candidate.iccid, row);
      }
      // Phone numbers and IMSIs are one card's each, in the sheet as in the database.
      for (const field of ['msisdn', 'imsi'] as const) {
        const v = candidate[field];
        if (!v) continue;
        if (numbersSeen[field].has(v)) rowErrors.push(cellError(row, field, 'duplicateValue'));
        else numbersSeen[field].add(v);
      }
      if (rowErrors.length > 0 || !parsed.success) errors.push(...rowErrors);
      else valid.push({ row, card: parsed.data, ownerPath: project?.ownerPath ?? actor.path });
    }
    const usedNumbers = await repo.existingNumbers(
      this.db,
      valid.flatMap((v) => (v.card.msisdn ? [v.card.msisdn] : [])),
      valid.flatMap((v) => (v.card.imsi ? [v.card.imsi] : [])),
    );
    const free = valid.filter((v) => {
      const used = (['msisdn', 'imsi'] as const).filter((field) => v.card[field] && usedNumbers[field].has(v.card[field]));
      for (const field of used) errors.push(cellError(v.row, field, 'duplicateValue'));
      return used.length === 0;
    });
    const { fresh, report, write } = importOutcome({
      total: rows.length,
      valid: free,
      errors,
      taken: await repo.existingIccids(this.db, free.map((v) => v.card.iccid)),
      key: { column: 'iccid', of: (v) => v.card.iccid, reason: 'iccidTaken' },
      mode,
      dryRun,
    });
    if (!write) return report;
    try {
      report.imported = await this.db.transaction(async (tx) => {
        await allowLongWork(tx);
        const n = await repo.insertCards(
          tx,
          fresh.map(({ card: { deviceId: _d, ...c }, ownerPath }) => ({ ...c, ownerPath })),
        );
        await audit(tx, actor, { name: file.filename, summary: { imported: n, rejected: errors.length, mode } });
        return n;
      });
    } catch (err) {
      if (uniqueViolationOf(err)?.startsWith('sim_cards_')) throw conflict('importRace'); // ICCID, number or IMSI taken meanwhile
      throw err;
    }
    return report;
  }

  async export(ctx: AuthContext, q: Omit<CardListQuery, 'page' | 'limit'>, lang: Language): Promise<Buffer> {
    const rows = await repo.exportCards(this.db, { ...q, scopePath: scopeOf(ctx) }, CARD_EXPORT_MAX + 1);
    if (rows.length > CARD_EXPORT_MAX) throw invalid('q', 'cardExportTooMany', { max: CARD_EXPORT_MAX });
    const body = rows.map((r) => toCardDto(ctx, r)).map((c) => {
      const byKey: Record<CardExportKey, unknown> = {
        ...c,
        project: c.projectName ?? '',
        device: c.deviceSn ?? '',
        activatedAt: c.activatedAt ?? '',
        expiresAt: c.expiresAt ?? '',
        daysLeft: c.daysLeft ?? '',
      };
      return CARD_EXPORT_COLUMNS.map((col) => byKey[col.key]);
    });
    return writeSheet('sim-cards', [CARD_EXPORT_COLUMNS.map((c) => c[lang]), ...body]);
  }
}
