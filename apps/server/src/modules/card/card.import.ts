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
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { invalid } from '../../lib/errors.js';
import { scopeOf } from '../../lib/scope.js';
import { writeSheet } from '../../lib/sheet.js';
import { cellText as text, runSheetImport, sheetTemplate, type SheetImport } from '../../lib/sheet-import.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { ProjectService } from '../project/project.service.js';
import { cellError, issueRefusal, type ImportSlots } from '../../lib/sheet-refusals.js';
import * as repo from './card.repo.js';
import { toCardDto, type CardListQuery } from './card.service.js';


type OwnedProject = Awaited<ReturnType<ProjectService['ownedBy']>>[number];
type CardRow = { card: z.output<typeof cardFieldsSchema>; ownerPath: string | undefined };

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

  /** The SIM card sheet: ICCIDs, phone numbers and IMSIs are one card's each, in the file and in the database. */
  private readonly sheet: SheetImport<CardSheetKey, CardRow, Map<string, OwnedProject[]>> = {
    sheet: 'sim-cards',
    columns: CARD_SHEET_COLUMNS,
    context: async (actor) => {
      const byName = new Map<string, OwnedProject[]>();
      for (const p of await this.projects.ownedBy(actor)) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
      return byName;
    },
    parse: (get, row, byName) => {
      const rowErrors: ImportError[] = [];
      let project: OwnedProject | undefined;
      const projectName = text(get('project'));
      if (projectName) {
        const found = byName.get(projectName) ?? [];
        if (found.length === 0) rowErrors.push(cellError(row, 'project', 'unknownProjectName', { name: projectName }));
        else if (found.length > 1) rowErrors.push(cellError(row, 'project', 'ambiguousProjectName', { name: projectName }));
        else project = found[0];
      }
      const num = (k: CardSheetKey) => (text(get(k)) === '' ? 0 : Number(text(get(k))));
      const parsed = cardFieldsSchema.safeParse({
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
      });
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const column = String(issue.path[0] ?? '');
          const refusal = column === 'activatedAt' || column === 'expiresAt' ? { reason: 'dateRequired' as const } : issueRefusal(issue);
          rowErrors.push(cellError(row, column, refusal.reason, refusal.params));
        }
        return { errors: rowErrors };
      }
      return { errors: rowErrors, value: { card: parsed.data, ownerPath: project?.ownerPath } };
    },
    unique: [
      { column: 'iccid', duplicate: (row) => ({ reason: 'duplicateIccidRow', params: { row } }) },
      // Phone numbers and IMSIs are one card's each, in the sheet as in the database.
      { column: 'msisdn', duplicate: () => ({ reason: 'duplicateValue' }) },
      { column: 'imsi', duplicate: () => ({ reason: 'duplicateValue' }) },
    ],
    taken: [
      { column: 'msisdn', of: (v) => v.card.msisdn, find: async (db, values) => (await repo.existingNumbers(db, values, [])).msisdn, reason: 'duplicateValue', named: false },
      { column: 'imsi', of: (v) => v.card.imsi, find: async (db, values) => (await repo.existingNumbers(db, [], values)).imsi, reason: 'duplicateValue', named: false },
      { column: 'iccid', of: (v) => v.card.iccid, find: repo.existingIccids, reason: 'iccidTaken', named: true },
    ],
    insert: (tx, rows, actor) => repo.insertCards(tx, rows.map(({ card: { deviceId: _d, ...c }, ownerPath }) => ({ ...c, ownerPath: ownerPath ?? actor.path }))),
    // ICCID, number or IMSI taken meanwhile.
    race: (constraint) => constraint.startsWith('sim_cards_'),
  };

  template(lang: Language): Promise<Buffer> {
    return sheetTemplate(this.sheet, lang);
  }

  import(actor: Actor, file: { filename: string; data: Buffer }, mode: ImportMode, dryRun: boolean): Promise<ImportReport> {
    return runSheetImport({ db: this.db, imports: this.imports, audit }, this.sheet, actor, file, mode, dryRun);
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
