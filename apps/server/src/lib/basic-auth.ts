/**
 * `Authorization: Basic base64(name:secret)` of a device (the HTTP ingest's SN, an external
 * device's identifier); undefined when absent or malformed.
 */
export function basicCredentials(header: string | undefined): { name: string; secret: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const text = Buffer.from(m[1]!, 'base64').toString();
  const at = text.indexOf(':');
  // A NUL byte names no device (PostgreSQL text cannot hold one): the same refusal as a wrong secret.
  if (at <= 0 || text.includes('\u0000')) return undefined;
  return { name: text.slice(0, at), secret: text.slice(at + 1) };
}
