import { EventEmitter } from 'node:events';
import type { CommandStatus } from '@iot/contract';
import type { AlarmDto } from '@iot/contract';

/**
 * Domain events. Services emit them; the realtime plugin (and later other consumers) deliver
 * them. Services never touch sockets. The in-process bus is the default; a Redis-backed bus
 * with the same interface fans out between server instances (REDIS_URL).
 */
export interface AppEvents {
  /** Sessions ended; their live sockets get SESSION_ENDED and are closed. */
  'session.ended': { sessionIds: number[]; code: number; reason: string };
  /** Menus or permissions changed for these users (undefined: everyone). */
  'menus.changed': { userIds?: number[] };
  /**
   * What users may see changed, committed: a project shared or unshared, devices moved or deleted,
   * a user moved. The live channel stops following what they lost: `userIds` re-reads those users'
   * rights and re-checks every device their sockets follow; `deviceIds` alone re-checks those
   * devices for every socket following them; neither, everyone's. Plain ids: it crosses instances.
   */
  'scope.changed': { userIds?: number[]; deviceIds?: number[] };
  /** New values of a device, committed (ingestion). */
  'device.values': { deviceId: number; ts: string; values: Record<string, string | number | boolean> };
  /**
   * A device's right to connect changed: disabled or deleted devices and devices with a new secret
   * are disconnected (ingestion, brokers); enabled ones may log in again.
   */
  'device.access': { deviceIds: number[]; sns: string[]; why: 'disabled' | 'enabled' | 'deleted' | 'credentials' };
  /** A device went online or offline (ingestion). */
  'device.status': { deviceId: number; online: boolean; at: string };
  /** A command to a device changed state (sent, succeeded, failed, timeout). */
  'device.command': {
    deviceId: number;
    id: string;
    kind: string;
    status: CommandStatus;
    message: string;
    progress: number | null;
  };
  /**
   * Commands were stored for a device this instance could not reach (not connected to its broker):
   * the instance whose embedded broker holds the device's connection publishes them now.
   */
  'device.commandsWaiting': { deviceId: number; sn: string };
  /** A device type's parameters or alarm rules changed (the alarm engine re-reads its rules). */
  'devicetype.changed': { typeId: number };
  /** Alarms started, ended or were processed (committed); the live channel tells who may see them. */
  'alarms.changed': { event: 'started' | 'ended' | 'processed'; alarms: AlarmDto[] };
}

export type EventName = keyof AppEvents;

export interface SubscribeOptions {
  /**
   * Only events emitted in this process. For handlers that write to the database: with several
   * instances (REDIS_URL) every instance hears every event, and the write must run once, where
   * the event happened. Caches, sockets and connections follow every instance's events.
   */
  local?: boolean;
}

export interface EventBus {
  emit<K extends EventName>(name: K, payload: AppEvents[K]): void;
  on<K extends EventName>(name: K, handler: (payload: AppEvents[K]) => void, opts?: SubscribeOptions): () => void;
  close(): Promise<void>;
}

export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  return {
    emit(name, payload) {
      emitter.emit(name, payload);
    },
    // Every event here is this process's own: `local` changes nothing.
    on(name, handler) {
      emitter.on(name, handler as (p: unknown) => void);
      return () => emitter.off(name, handler as (p: unknown) => void);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
