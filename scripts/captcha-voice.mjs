// Makes the spoken characters of the audio captcha (apps/server/src/modules/auth/captcha-voice.json)
// with eSpeak NG (`apt-get install espeak-ng`), once, by a developer: the server only mixes these
// clips (captcha-audio.ts) and needs no speech synthesizer. The clips are eSpeak's output, not its
// code. Usage: node scripts/captcha-voice.mjs
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const OUT = path.resolve(import.meta.dirname, '../apps/server/src/modules/auth/captcha-voice.json');
const CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Output rate: half of eSpeak's 22,050 Hz, plenty for a voice. */
const RATE = 11025;

/** 16-bit mono PCM samples of a WAV file (eSpeak writes a plain RIFF header). */
function samples(wav) {
  let at = 12;
  while (at < wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'data') {
      const n = Math.min(size, wav.length - at - 8) / 2;
      return Int16Array.from({ length: n }, (_, i) => wav.readInt16LE(at + 8 + i * 2));
    }
    at += 8 + size;
  }
  throw new Error('no data chunk');
}

const clips = {};
for (const ch of CHARS) {
  const ssml = `<speak><say-as interpret-as="characters">${ch}</say-as></speak>`;
  const wav = execFileSync('espeak-ng', ['-v', 'en-us', '-s', '125', '-m', '--stdout', ssml]);
  const s = samples(wav);
  // Trim the silence around the character.
  const loud = (v) => Math.abs(v) > 400;
  const first = s.findIndex(loud);
  let last = s.length - 1;
  while (last > first && !loud(s[last])) last--;
  const voiced = s.subarray(Math.max(0, first - 100), Math.min(s.length, last + 200));
  // Halve the rate (mean of pairs), bring the peak to 120 and keep 8 bits, signed.
  const peak = voiced.reduce((m, v) => Math.max(m, Math.abs(v)), 1);
  const scale = 120 / peak;
  const out = Buffer.alloc(Math.floor(voiced.length / 2));
  for (let i = 0; i < out.length; i++) {
    const v = ((voiced[2 * i] + voiced[2 * i + 1]) / 2) * scale;
    out.writeInt8(Math.max(-128, Math.min(127, Math.round(v))), i);
  }
  clips[ch] = out.toString('base64');
}
writeFileSync(OUT, `${JSON.stringify({ source: 'eSpeak NG en-us', rate: RATE, bits: 8, clips }, null, 0)}\n`);
console.log(`${Object.keys(clips).length} clips → ${OUT}`);
