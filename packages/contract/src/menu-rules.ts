/**
 * Where a menu may lead: an in-site path (`type`, `/device`; no scheme, not `//host`) for jump
 * type 1, an absolute http(s) URL for jump type 2. `javascript:`, `data:` and the like never.
 */
export function menuUrlProblem(jumpType: number, url: string): string | undefined {
  // Whitespace, backslashes and control characters have no place in either kind.
  if (/[\s\\]/.test(url) || [...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    return 'no spaces, backslashes or control characters';
  }
  if (jumpType === 2) {
    if (!/^https?:\/\/[^/?#@]+([/?#].*)?$/i.test(url)) return 'an out-of-site link must be an http:// or https:// URL';
    return undefined;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return 'an in-site path, without a scheme or host';
  return undefined;
}
