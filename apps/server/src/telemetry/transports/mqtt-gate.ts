import { Duplex } from 'node:stream';
import type net from 'node:net';

export type GateRefusal = 'tooLarge' | 'notConnectFirst' | 'malformedHeader';

export interface GateOptions {
  /** Largest MQTT packet taken (fixed header included), checked from its header. */
  maxPacketBytes: number;
  /** Packets handed to the broker at once: it reads the next ones when these are handled. */
  packetsPerRead: number;
  /** Called once when the connection is closed for a packet it may not send. */
  onRefused(reason: GateRefusal, detail: { announced?: number }): void;
}

const FIRST_PACKET_MAX = 64 * 1024;
/** Bytes kept read ahead of the broker before the socket is paused. */
const READ_AHEAD = 64 * 1024;

/**
 * Stands between a device's socket and the broker (Aedes) and reads only MQTT fixed headers: a
 * packet announcing more than `maxPacketBytes` closes the connection before its body is read, so
 * no client can make the server buffer a large packet (Aedes' parser keeps a packet whole until it
 * is complete, before CONNECT too); the first packet must be CONNECT, of at most 64 KiB. Packets
 * reach the broker whole, so a connection holds at most 64 KiB of read-ahead and one packet. It also hands the broker at
 * most `packetsPerRead` packets at a time: Aedes handles the packets of one read together and
 * reads on only when all are done, so a device slowed by its rate limit holds only that many
 * messages in the server, and its PINGREQs are still read between them.
 */
export class PacketGate extends Duplex {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private wanted = false;
  private refused = false;
  private packets = 0;
  // Header parsing state, across chunk boundaries.
  private state: 'type' | 'length' | 'body' = 'type';
  private type = 0;
  private length = 0;
  private lengthBytes = 0;
  private bodyLeft = 0;
  /** The sizes of the complete packets waiting in `pending`, in order. */
  private readonly complete: number[] = [];
  /** Bytes of the packet still arriving (always after the complete ones in `pending`). */
  private partialBytes = 0;

  constructor(
    private readonly socket: net.Socket,
    private readonly opts: GateOptions,
  ) {
    // highWaterMark 1: the broker's read takes what one push gave, and the next push waits for it.
    super({ readableHighWaterMark: 1, allowHalfOpen: false });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => this.push(null));
    socket.on('close', () => this.destroy());
    socket.on('error', (err) => this.destroy(err));
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  private onData(chunk: Buffer) {
    if (this.refused) return;
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'type') {
        this.type = chunk[i]! >> 4;
        if (this.packets === 0 && this.type !== 1) return this.refuse('notConnectFirst', {});
        this.state = 'length';
        this.length = 0;
        this.lengthBytes = 0;
        this.partialBytes++;
        i++;
      } else if (this.state === 'length') {
        const b = chunk[i]!;
        this.length += (b & 0x7f) * 128 ** this.lengthBytes;
        this.lengthBytes++;
        this.partialBytes++;
        i++;
        if (b & 0x80) {
          if (this.lengthBytes >= 4) return this.refuse('malformedHeader', {});
          continue;
        }
        // CONNECT (the first packet, before any login) is held to 64 KiB at most.
        const max = this.packets === 0 ? Math.min(FIRST_PACKET_MAX, this.opts.maxPacketBytes) : this.opts.maxPacketBytes;
        if (1 + this.lengthBytes + this.length > max) {
          return this.refuse('tooLarge', { announced: 1 + this.lengthBytes + this.length });
        }
        this.bodyLeft = this.length;
        if (this.bodyLeft === 0) this.endPacket();
        else this.state = 'body';
      } else {
        const take = Math.min(this.bodyLeft, chunk.length - i);
        this.bodyLeft -= take;
        this.partialBytes += take;
        i += take;
        if (this.bodyLeft === 0) this.endPacket();
      }
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes > READ_AHEAD + this.opts.maxPacketBytes) this.socket.pause();
    if (this.wanted) this.pushSome();
  }

  private endPacket() {
    this.complete.push(this.partialBytes);
    this.partialBytes = 0;
    this.packets++;
    this.state = 'type';
  }

  private refuse(reason: GateRefusal, detail: { announced?: number }) {
    this.refused = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.opts.onRefused(reason, detail);
    this.socket.destroy();
  }

  /** Pushes the bytes of up to `packetsPerRead` complete packets. */
  private pushSome() {
    if (this.complete.length === 0) return;
    const n = Math.min(this.complete.length, this.opts.packetsPerRead);
    let bytes = 0;
    for (const size of this.complete.splice(0, n)) bytes += size;
    this.wanted = false;
    this.push(this.takeBytes(bytes));
    if (this.pendingBytes <= READ_AHEAD) this.socket.resume();
  }

  private takeBytes(bytes: number): Buffer {
    const parts: Buffer[] = [];
    let left = bytes;
    while (left > 0) {
      const head = this.pending[0]!;
      if (head.length <= left) {
        parts.push(head);
        this.pending.shift();
        left -= head.length;
      } else {
        parts.push(head.subarray(0, left));
        this.pending[0] = head.subarray(left);
        left = 0;
      }
    }
    this.pendingBytes -= bytes;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  override _read(): void {
    this.wanted = true;
    this.pushSome();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.socket.write(chunk)) cb();
    else this.socket.once('drain', () => cb());
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.socket.end();
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.socket.destroy();
    cb(err);
  }
}
