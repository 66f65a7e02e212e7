/** `/login?redirect=<path>`: where the login page sends the user afterwards. */
export function loginRedirect(fullPath: string): string {
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}

/** Only a path on this site may follow a login (never `//other.host` or `https:`). */
export function safeRedirect(value: string | null | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
    ? value
    : '/';
}
