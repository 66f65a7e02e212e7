const SECRET = /pass(word)?|token|secret|captcha/i;

/** JSON summary of what a call changed, without secrets, bounded in size. */
export function summarize(value: unknown): string {
  const json = JSON.stringify(value, (key, v) => (key && SECRET.test(key) ? undefined : v));
  if (!json) return '';
  return json.length > 2000 ? `${json.slice(0, 1997)}...` : json;
}
