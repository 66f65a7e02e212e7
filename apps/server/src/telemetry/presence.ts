import type { Batch, IngestDevice } from './ingest.repo.js';
import { logRow } from './rows.js';

interface State {
  online: boolean;
  lastSeen: number;
  lastWritten: number;
  /** Open MQTT connections of the device (embedded broker, demo fleet): online while any is. */
  connections: number;
  /** The status `info` this process last wrote for the device (JSON), to write it only when it changes. */
  info?: string;
  /** The device, while it has connections here (their last-seen is written on the sweep). */
  who?: Who;
}

type Part = Partial<Batch>;
type Who = Pick<IngestDevice, 'id' | 'sn' | 'ownerPath'>;

/**
 * Whether each device is online, kept in memory per process (docs/decisions/0008): online on a
 * connection or a message; offline when its last connection closes, when it says so (status,
 * last will), or for a device without a connection after `offlineAfterMs` of silence. Each change
 * adds its rows (`seen`, an online/offline log row) to the message's part of the batch;
 * `last_seen_at` is written at most every `seenWriteMs`.
 *
 * Several instances (decision 0038): the database decides. A change the devices row already has
 * is not logged nor announced twice (ingest.repo `repeatedPresence`); the last-seen write of an
 * online device says online again, so an instance that missed another's change puts it right;
 * connected devices have their last-seen written even when quiet; other instances' changes are
 * heard (`heard`); and silence is checked against the database's last-seen (`silent` only
 * proposes: IngestService.sweep asks the database first).
 */
export class PresenceTracker {
  private readonly states = new Map<number, State>();

  constructor(private readonly opts: { offlineAfterMs: number; seenWriteMs: number }) {}

  /** Devices the database still has online (a restart): online until silence says otherwise. */
  load(ids: number[], now: number): void {
    for (const id of ids) this.states.set(id, { online: true, lastSeen: now, lastWritten: now, connections: 0 });
  }

  private of(id: number, now: number): State {
    let s = this.states.get(id);
    if (!s) this.states.set(id, (s = { online: false, lastSeen: now, lastWritten: 0, connections: 0 }));
    return s;
  }

  connected(device: Who, now: number, part: Part): void {
    const s = this.of(device.id, now);
    s.connections++;
    s.who = device;
    this.seen(device, now, part, true);
  }

  /** Offline only when the device's last connection closes (it may listen on one and publish on others). */
  disconnected(device: Who, now: number, part: Part): void {
    const s = this.of(device.id, now);
    s.connections = Math.max(0, s.connections - 1);
    if (s.connections === 0) s.who = undefined;
    if (s.online && s.connections === 0) this.goOffline(device, s, now, part, 'disconnected');
  }

  /** A message or a connection: online now (`online`), last-seen written when it is getting old. */
  seen(device: Who, now: number, part: Part, online: true | undefined): void {
    const s = this.of(device.id, now);
    s.lastSeen = now;
    const at = new Date(now).toISOString();
    if (online && !s.online) {
      s.online = true;
      s.lastWritten = now;
      (part.seen ??= []).push({ deviceId: device.id, at, online: true });
      (part.logs ??= []).push(logRow(device, device.sn, 'online'));
    } else if (now - s.lastWritten >= this.opts.seenWriteMs) {
      s.lastWritten = now;
      this.stillHere(device, s, now, part);
    }
  }

  /** Last-seen, and online again when this process has it online (the database may not: decision 0038). */
  private stillHere(device: Who, s: State, now: number, part: Part) {
    const at = new Date(now).toISOString();
    if (!s.online) return void (part.seen ??= []).push({ deviceId: device.id, at });
    (part.seen ??= []).push({ deviceId: device.id, at, online: true });
    (part.logs ??= []).push(logRow(device, device.sn, 'online'));
  }

  /** Devices connected here, quiet for `seenWriteMs`: their last-seen is written, so other instances do not take them for silent. */
  connectedQuiet(now: number, part: Part): void {
    for (const s of this.states.values()) {
      if (s.connections === 0 || !s.who || now - s.lastWritten < this.opts.seenWriteMs) continue;
      s.lastWritten = now;
      s.lastSeen = now;
      this.stillHere(s.who, s, now, part);
    }
  }

  /**
   * Another instance's change (the `device.status` event): a device this process knows follows
   * it, unless this process heard it since, or holds a connection of it (then it is online: its
   * next last-seen write, made due now, says so).
   */
  heard(deviceId: number, online: boolean, at: number): void {
    const s = this.states.get(deviceId);
    if (!s || s.online === online) return;
    if (online) {
      s.online = true;
      s.lastSeen = Math.max(s.lastSeen, at);
    } else if (s.connections > 0) {
      s.lastWritten = 0;
    } else if (at >= s.lastSeen) {
      s.online = false;
    }
  }

  /**
   * What the database says of devices this process found silent: offline already (taken offline
   * by another instance: followed without a row), or heard since by another instance (not silent).
   */
  settle(deviceId: number, online: boolean, lastSeen: number): void {
    const s = this.states.get(deviceId);
    if (!s) return;
    if (!online) s.online = false;
    else s.lastSeen = Math.max(s.lastSeen, lastSeen);
  }

  /** The device said it is going (`{"online":false}`, its last will). */
  saysOffline(device: Who, now: number, part: Part): void {
    const s = this.of(device.id, now);
    if (s.online) this.goOffline(device, s, now, part, 'status');
  }

  /** A status message's `info`: stored with the batch's last-seen update, only when it changed. */
  reported(device: Who, now: number, part: Part, info: Record<string, string | number | boolean>): void {
    const s = this.of(device.id, now);
    const json = JSON.stringify(info);
    if (json === s.info) return;
    s.info = json;
    (part.seen ??= []).push({ deviceId: device.id, at: new Date(now).toISOString(), info });
  }

  /** A batch was not stored: its reported info is written again with the device's next status. */
  notStored(batch: Batch): void {
    for (const r of batch.seen) {
      const s = r.info && this.states.get(r.deviceId);
      if (s && s.info === JSON.stringify(r.info)) s.info = undefined;
    }
  }

  /**
   * Devices silent past the timeout. A device with an open connection is online however quiet it
   * is: the connection's MQTT keepalive (or TCP) closes a dead one. Silence takes offline only
   * devices without one (HTTP devices, devices behind an external broker).
   */
  silent(now: number): number[] {
    const ids: number[] = [];
    for (const [id, s] of this.states) {
      if (s.online && s.connections === 0 && now - s.lastSeen >= this.opts.offlineAfterMs) ids.push(id);
    }
    return ids;
  }

  /** Takes silent devices offline (their rows read again: `silent` gives ids only). */
  silenced(devices: Who[], now: number, part: Part): void {
    for (const d of devices) {
      const s = this.states.get(d.id);
      if (s?.online) this.goOffline(d, s, now, part, 'silence');
    }
  }

  private goOffline(device: Who, s: State, now: number, part: Part, why: 'disconnected' | 'status' | 'silence') {
    s.online = false;
    (part.seen ??= []).push({ deviceId: device.id, at: new Date(Math.min(now, s.lastSeen)).toISOString(), online: false });
    (part.logs ??= []).push(logRow(device, device.sn, 'offline', undefined, { why }));
  }
}
