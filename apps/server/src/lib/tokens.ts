import crypto from 'node:crypto';

/** A new opaque session token: 32 random bytes, URL-safe. */
export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Only this hash is stored, so a database leak does not leak usable tokens. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

const digest = (s: string) => crypto.createHash('sha256').update(s).digest();

/** Equal strings, compared in constant time (digests, so the lengths leak nothing either). */
export function sameSecret(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  return crypto.timingSafeEqual(digest(given), digest(expected));
}
