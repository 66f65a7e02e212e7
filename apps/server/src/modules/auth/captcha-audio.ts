import { readFileSync } from 'node:fs';

/**
 * The audio form of a captcha: its characters spoken, as a short WAV (8-bit mono). The voice is
 * clips of eSpeak NG made once by `scripts/captcha-voice.mjs` (captcha-voice.json); each answer
 * mixes them afresh: every character at its own speed and pitch (±10 %) and loudness, random
 * pauses, the whole said twice, under a little noise, so no two answers are the same bytes.
 */

interface Voice {
  rate: number;
  clips: Record<string, string>;
}

let voice: { rate: number; clips: Map<string, Int8Array> } | undefined;

function loadVoice() {
  if (!voice) {
    const raw = JSON.parse(readFileSync(new URL('./captcha-voice.json', import.meta.url), 'utf8')) as Voice;
    voice = {
      rate: raw.rate,
      clips: new Map(Object.entries(raw.clips).map(([ch, b64]) => [ch, new Int8Array(Buffer.from(b64, 'base64'))])),
    };
  }
  return voice;
}

/** Whether every character of `text` can be spoken. */
export function canSpeak(text: string): boolean {
  const { clips } = loadVoice();
  return [...text.toLowerCase()].every((ch) => clips.has(ch));
}

/** A WAV file of `text` (letters and digits, any case) spoken twice. */
export function captchaWav(text: string, random: () => number = Math.random): Buffer {
  const { rate, clips } = loadVoice();
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  const out: number[] = [];
  const pause = (seconds: number) => {
    for (let i = Math.round(seconds * rate); i > 0; i--) out.push(0);
  };
  pause(0.4);
  for (let round = 0; round < 2; round++) {
    for (const ch of text.toLowerCase()) {
      const clip = clips.get(ch);
      if (!clip) throw new Error(`no voice for ${JSON.stringify(ch)}`);
      // Played faster or slower (higher or lower), by linear interpolation.
      const speed = between(0.9, 1.1);
      const gain = between(0.75, 1);
      for (let at = 0; at < clip.length - 1; at += speed) {
        const i = Math.floor(at);
        const v = clip[i]! + (clip[i + 1]! - clip[i]!) * (at - i);
        out.push(v * gain);
      }
      pause(between(0.3, 0.6));
    }
    pause(0.9);
  }
  const data = Buffer.alloc(out.length);
  for (let i = 0; i < out.length; i++) {
    const noisy = out[i]! + between(-4, 4);
    data[i] = Math.max(0, Math.min(255, Math.round(noisy + 128)));
  }
  return wav(data, rate);
}

/** A RIFF WAVE file of 8-bit unsigned mono samples. */
function wav(data: Buffer, rate: number): Buffer {
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVE', 8, 'ascii');
  head.write('fmt ', 12, 'ascii');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate, 28); // bytes a second
  head.writeUInt16LE(1, 32); // bytes a frame
  head.writeUInt16LE(8, 34);
  head.write('data', 36, 'ascii');
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}
