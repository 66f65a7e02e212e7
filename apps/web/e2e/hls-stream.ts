/**
 * A real, tiny HLS stream made in memory for the video E2E (the machine has no ffmpeg): H.264
 * Baseline pictures of 32×32 pixels (each segment starts with an IDR picture of I_PCM
 * macroblocks, a flat grey that changes per segment, followed by P pictures that skip every
 * macroblock) at 25 frames a second, in MPEG-TS (PAT, PMT, one PES per picture), and a live
 * `.m3u8` playlist over them. A browser's decoder plays it like any camera's stream.
 */

const WIDTH_MBS = 2;
const HEIGHT_MBS = 2;
const FPS = 25;
/** The 90 kHz clock of PES timestamps. */
const TICKS = 90_000 / FPS;
const PMT_PID = 0x1000;
const VIDEO_PID = 0x100;
/** log2_max_frame_num_minus4 in the SPS: frame_num has 8 bits. */
const FRAME_NUM_BITS = 8;

class BitWriter {
  private bits: number[] = [];
  u(n: number, value: number) {
    for (let i = n - 1; i >= 0; i--) this.bits.push((value >> i) & 1);
    return this;
  }
  /** Unsigned Exp-Golomb. */
  ue(value: number) {
    const v = value + 1;
    const len = Math.floor(Math.log2(v));
    this.u(len, 0);
    return this.u(len + 1, v);
  }
  se(value: number) {
    return this.ue(value <= 0 ? -2 * value : 2 * value - 1);
  }
  align() {
    while (this.bits.length % 8) this.bits.push(0);
    return this;
  }
  bytes(data: Uint8Array) {
    for (const b of data) this.u(8, b);
    return this;
  }
  /** rbsp_trailing_bits, then the bytes. */
  finish(): number[] {
    this.bits.push(1);
    this.align();
    const out: number[] = [];
    for (let i = 0; i < this.bits.length; i += 8) out.push(this.bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
    return out;
  }
}

/** A NAL unit with its Annex B start code and emulation prevention bytes. */
function nal(refIdc: number, type: number, rbsp: number[]): number[] {
  const out = [0, 0, 0, 1, (refIdc << 5) | type];
  let zeros = 0;
  for (const b of rbsp) {
    if (zeros >= 2 && b <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(b);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return out;
}

function sps(): number[] {
  const w = new BitWriter().u(8, 66).u(8, 0xc0).u(8, 30); // Baseline, constraint_set0/1, level 3.0
  w.ue(0).ue(FRAME_NUM_BITS - 4).ue(2); // sps id, log2_max_frame_num_minus4, pic_order_cnt_type 2
  w.ue(1).u(1, 0); // max_num_ref_frames, gaps_in_frame_num_value_allowed_flag
  w.ue(WIDTH_MBS - 1).ue(HEIGHT_MBS - 1);
  w.u(1, 1).u(1, 1).u(1, 0).u(1, 0); // frame_mbs_only, direct_8x8_inference, no cropping, no VUI
  return nal(3, 7, w.finish());
}

function pps(): number[] {
  const w = new BitWriter().ue(0).ue(0).u(1, 0).u(1, 0).ue(0); // ids, CAVLC, no field POC, one slice group
  w.ue(0).ue(0).u(1, 0).u(2, 0); // ref idx defaults, no weighted prediction
  w.se(0).se(0).se(0); // QP, QS, chroma QP offset
  w.u(1, 1).u(1, 0).u(1, 0); // deblocking control present, no constrained intra, no redundant pictures
  return nal(3, 8, w.finish());
}

/** An IDR picture: every macroblock I_PCM in one grey. */
function idr(idrPicId: number, grey: number): number[] {
  const w = new BitWriter().ue(0).ue(7).ue(0).u(FRAME_NUM_BITS, 0).ue(idrPicId);
  w.u(1, 0).u(1, 0); // dec_ref_pic_marking: no_output_of_prior_pics, not long-term
  w.se(0).ue(1); // slice_qp_delta, deblocking off
  const samples = new Uint8Array(384).fill(grey, 0, 256).fill(128, 256);
  for (let mb = 0; mb < WIDTH_MBS * HEIGHT_MBS; mb++) w.ue(25).align().bytes(samples); // I_PCM
  return nal(3, 5, w.finish());
}

/** A P picture that repeats the previous one (every macroblock skipped). */
function skipped(frameNum: number): number[] {
  const w = new BitWriter().ue(0).ue(5).ue(0).u(FRAME_NUM_BITS, frameNum);
  w.u(1, 0).u(1, 0).u(1, 0); // no ref count override, no list modification, no adaptive marking
  w.se(0).ue(1).ue(WIDTH_MBS * HEIGHT_MBS); // slice_qp_delta, deblocking off, mb_skip_run
  return nal(2, 1, w.finish());
}

const AUD = [0, 0, 0, 1, 9, 0xf0];

function crc32mpeg(data: number[]): number {
  let crc = 0xffffffff;
  for (const b of data) {
    crc ^= b << 24;
    for (let i = 0; i < 8; i++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

/** A PSI section (PAT or PMT) in one TS packet payload, CRC appended. */
function section(tableId: number, idExt: number, body: number[]): number[] {
  const len = 5 + body.length + 4;
  const s = [tableId, 0xb0 | (len >> 8), len & 0xff, idExt >> 8, idExt & 0xff, 0xc1, 0, 0, ...body];
  const crc = crc32mpeg(s);
  return [0, ...s, crc >>> 24, (crc >> 16) & 0xff, (crc >> 8) & 0xff, crc & 0xff];
}

class TsWriter {
  readonly packets: number[][] = [];
  private cc = new Map<number, number>();

  /** Splits a payload into 188-byte packets; the first may carry a PCR, the last is stuffed. */
  write(pid: number, payload: number[], pcr?: number) {
    for (let offset = 0; offset < payload.length; ) {
      const cc = this.cc.get(pid) ?? 0;
      this.cc.set(pid, (cc + 1) & 15);
      // The adaptation field after its length byte: flags, the PCR if any, stuffing.
      let field: number[] | undefined;
      if (offset === 0 && pcr !== undefined) {
        const b = Math.floor(pcr);
        field = [0x10, Math.floor(b / 2 ** 25) & 0xff, (b >> 17) & 0xff, (b >> 9) & 0xff, (b >> 1) & 0xff, ((b & 1) << 7) | 0x7e, 0];
      }
      const left = payload.length - offset;
      const room = 184 - (field ? field.length + 1 : 0);
      if (left < room) {
        field ??= [];
        if (!field.length && left < 183) field.push(0x00); // flags: none
        while (184 - field.length - 1 > left) field.push(0xff);
      }
      const take = Math.min(left, room);
      const header = [0x47, (offset === 0 ? 0x40 : 0) | (pid >> 8), pid & 0xff, (field ? 0x30 : 0x10) | cc];
      const packet = [...header, ...(field ? [field.length, ...field] : []), ...payload.slice(offset, offset + take)];
      if (packet.length !== 188) throw new Error(`TS packet of ${packet.length} bytes`);
      this.packets.push(packet);
      offset += take;
    }
  }
}

function pts(marker: number, value: number): number[] {
  return [
    (marker << 4) | ((Math.floor(value / 2 ** 30) & 7) << 1) | 1,
    (value >> 22) & 0xff,
    (((value >> 15) & 0x7f) << 1) | 1,
    (value >> 7) & 0xff,
    ((value & 0x7f) << 1) | 1,
  ];
}

/** Segment `index` of the stream: `seconds` long, its timestamps following the previous one's. */
export function segment(index: number, seconds = 1): Buffer {
  const ts = new TsWriter();
  ts.write(0, section(0x00, 1, [0, 1, 0xe0 | (PMT_PID >> 8), PMT_PID & 0xff]));
  ts.write(PMT_PID, section(0x02, 1, [0xe0 | (VIDEO_PID >> 8), VIDEO_PID & 0xff, 0xf0, 0, 0x1b, 0xe0 | (VIDEO_PID >> 8), VIDEO_PID & 0xff, 0xf0, 0]));
  const frames = seconds * FPS;
  for (let f = 0; f < frames; f++) {
    const time = 90_000 + (index * frames + f) * TICKS;
    const picture = f === 0 ? [...AUD, ...sps(), ...pps(), ...idr(index % 2, 60 + ((index * 40) % 160))] : [...AUD, ...skipped(f)];
    const pes = [0, 0, 1, 0xe0, 0, 0, 0x80, 0x80, 5, ...pts(2, time), ...picture];
    ts.write(VIDEO_PID, pes, f === 0 ? time - 3_000 : undefined);
  }
  return Buffer.from(ts.packets.flat());
}

/**
 * A live playlist: the `window` segments ending at `last` (a player reloads it and finds new
 * ones), `name(i)` the URI of segment i.
 */
export function playlist(last: number, name: (i: number) => string, window = 3, seconds = 1): string {
  const first = Math.max(0, last - window + 1);
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${seconds}`, `#EXT-X-MEDIA-SEQUENCE:${first}`];
  for (let i = first; i <= last; i++) lines.push(`#EXTINF:${seconds.toFixed(3)},`, name(i));
  return `${lines.join('\n')}\n`;
}
