import {
  DEVICE_SHEET_COLUMNS,
  ErrorCode,
  IMPORT_MAX_ROWS_EMBEDDED,
  refusalMessage,
  type ImportMode,
  type ImportReport,
  type DeviceSheetKey,
  type Language,
} from '@iot/contract';
import type { z } from 'zod';
import type { deviceFieldsSchema, deviceListQuerySchema } from '@iot/contract';

import type { Db } from '../../db/client.js';
import { AppError, invalid } from '../../lib/errors.js';
import { deviceOwnerPath, scopeOf } from '../../lib/scope.js';
import { readSheetInWorker, SheetReadError, writeSheet, type ParsedSheet } from '../../lib/sheet.js';
import { Slots } from '../../lib/slots.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceTypeService } from '../devicetype/devicetype.service.js';
import type { ProjectService } from '../project/project.service.js';
import * as repo from './device.repo.js';
import { runSheetImport, sheetTemplate, type SheetImport } from '../../lib/sheet-import.js';
import { exportHeaderRow, exportRow, parseDeviceRow, type SheetContext } from './device.sheet.js';

type DeviceFields = z.output<typeof deviceFieldsSchema>;
type OwnedProject = Awaited<ReturnType<ProjectService['ownedBy']>>[number];

export const EXPORT_MAX_ROWS = 100_000;

export interface ImportLimits {
  /** Imports that may run at once (parsing is CPU-heavy). */
  concurrency: number;
  /** How long a further import waits for a free slot before it answers 42900. */
  waitMs: number;
  /** Rows one import may take (config IMPORT_MAX_ROWS: 100,000 on PostgreSQL, 20,000 on PGlite). */
  maxRows: number;
}
export const IMPORT_LIMITS: ImportLimits = { concurrency: 2, waitMs: 5_000, maxRows: IMPORT_MAX_ROWS_EMBEDDED };

/** Bulk import from .xlsx/.xls and export to .xlsx (§5 batch upload). */
export class DeviceSheetService {
  private readonly slots: Slots;

  constructor(
    private readonly db: Db,
    private readonly types: DeviceTypeService,
    private readonly projects: ProjectService,
    private readonly limits: ImportLimits = IMPORT_LIMITS,
  ) {
    this.slots = new Slots(limits.concurrency);
  }

  /** The device sheet: SNs are one device's each, in the file and platform-wide. */
  private readonly sheet: SheetImport<DeviceSheetKey, DeviceFields, SheetContext & { byId: Map<number, OwnedProject> }> = {
    sheet: 'devices',
    columns: DEVICE_SHEET_COLUMNS,
    context: async (actor) => {
      const projects = await this.projects.ownedBy(actor);
      const byName = new Map<string, number[]>();
      for (const p of projects) byName.set(p.name, [...(byName.get(p.name) ?? []), p.id]);
      const types = new Map((await this.types.options(actor)).map((t) => [t.code, t.id]));
      return { types, projects: byName, byId: new Map(projects.map((p) => [p.id, p])) };
    },
    parse: parseDeviceRow,
    unique: [{ column: 'sn', duplicate: (row) => ({ reason: 'duplicateSnRow', params: { row } }) }],
    taken: [{ column: 'sn', of: (f) => f.sn, find: repo.existingSns, reason: 'snTaken', named: true }],
    insert: (tx, fields, actor, ctx) =>
      repo.bulkInsertDevices(
        tx,
        fields.map((f) => ({ ...f, projectId: f.projectId, ownerPath: deviceOwnerPath(f.projectId ? ctx.byId.get(f.projectId) : undefined) ?? actor.path })),
      ),
    // SNs added by someone else between the check and the insert.
    race: (constraint) => constraint === 'devices_sn_unique',
  };

  template(lang: Language): Promise<Buffer> {
    return sheetTemplate(this.sheet, lang);
  }

  /**
   * Validates every row and reports row, column and reason (lib/sheet-import.ts): `all` writes
   * nothing when any row is wrong; `valid` writes the valid rows; a dry run only reports. Never
   * half-written: the insert is one statement in one transaction.
   */
  import(actor: Actor, file: { filename: string; data: Buffer }, mode: ImportMode, dryRun: boolean): Promise<ImportReport> {
    return runSheetImport({ db: this.db, imports: this, audit }, this.sheet, actor, file, mode, dryRun);
  }

  /**
   * Runs an import in one of the process's import slots (shared by every sheet import: devices and
   * SIM cards); a caller that cannot get one within `waitMs` is answered 42900 `importBusy`.
   */
  async withImportSlot<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.slots.acquire(this.limits.waitMs);
    if (!release) {
      throw new AppError(ErrorCode.RATE_LIMITED, refusalMessage('importBusy'), {
        reason: 'importBusy',
        retryAfter: Math.max(1, Math.ceil(this.limits.waitMs / 1000)),
      });
    }
    try {
      return await work();
    } finally {
      release();
    }
  }

  /**
   * The header and data rows of an uploaded sheet (parsed in a worker, devices' and SIM cards'),
   * or the file's refusal: not a spreadsheet, more rows than this server takes, or over what a
   * sheet of that many rows unpacks to or holds in cells (sheetLimits).
   */
  async readImportRows(data: Buffer): Promise<{ header: unknown[]; rows: unknown[][] }> {
    const max = this.limits.maxRows;
    let sheet: ParsedSheet;
    try {
      // Header + the row limit + one more row to notice a sheet that is too long.
      sheet = await readSheetInWorker(data, { maxRows: max + 2 });
    } catch (err) {
      if (err instanceof SheetReadError && err.limit) throw invalid('file', err.limit.reason, { max: err.limit.max });
      if (err instanceof SheetReadError && err.tooLarge) throw invalid('file', 'importTooManyRows', { max });
      throw invalid('file', 'notSpreadsheet');
    }
    const [header = [], ...rows] = sheet.rows;
    if (rows.length > max || sheet.dimensionRows > max + 1) throw invalid('file', 'importTooManyRows', { max });
    return { header, rows };
  }

  async export(ctx: AuthContext, q: z.output<typeof deviceListQuerySchema>, lang: Language): Promise<Buffer> {
    const rows = await repo.exportDevices(this.db, { ...q, scopePath: scopeOf(ctx) }, EXPORT_MAX_ROWS);
    if (rows.length >= EXPORT_MAX_ROWS) {
      throw invalid('q', 'exportTooMany', { max: EXPORT_MAX_ROWS });
    }
    return writeSheet('devices', [exportHeaderRow(lang), ...rows.map(exportRow)]);
  }
}
