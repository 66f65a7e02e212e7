/**
 * WCAG 2.1 contrast (§1.4.3): the console's colours come from settings (theme colour) and the
 * site configuration (login colours), so any of them may be too light or too dark for text.
 * `readableOn` keeps the hue and moves the lightness just as far as the contrast needs.
 */

/** The contrast AA asks of normal-size text. */
export const AA_TEXT = 4.5;

type Rgb = [number, number, number];

function parse(hex: string): Rgb | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return undefined;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
}

function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The WCAG contrast ratio of two colours (1 to 21); 1 when one of them is not a hex colour. */
export function contrast(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return 1;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Mixes `rgb` towards black (t < 0) or white (t > 0) by |t|. */
function mix(rgb: Rgb, t: number): Rgb {
  const target = t < 0 ? 0 : 255;
  const k = Math.abs(t);
  return rgb.map((v) => v + (target - v) * k) as Rgb;
}

/**
 * `color`, darkened (on a light background) or lightened (on a dark one) by the least amount
 * that gives `ratio` against `background`; unchanged when it already does. Not a hex colour:
 * returned as it is.
 */
export function readableOn(color: string, background: string, ratio: number = AA_TEXT): string {
  const rgb = parse(color);
  const bg = parse(background);
  if (!rgb || !bg) return color;
  if (contrast(color, background) >= ratio) return toHex(rgb);
  const direction = luminance(bg) > 0.18 ? -1 : 1;
  // The contrast grows with the mix: find the smallest step that is enough (1/256 resolution).
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 8; i++) {
    const mid = (lo + hi) / 2;
    if (contrast(toHex(mix(rgb, direction * mid)), background) >= ratio) hi = mid;
    else lo = mid;
  }
  return toHex(mix(rgb, direction * hi));
}
