/**
 * The site operator's contact details the E2E servers start with. The Playwright config stores
 * them in the fresh database with `scripts/site-config.ts` before the server starts, as a
 * deployment script would (no single quotes: they go through the shell); site-settings.spec.ts
 * edits them in the console and puts them back.
 */
export const SITE_CONTACT = {
  contactTel: '+86 21 5555 0100',
  email: 'support@iot-console.example',
  address: '上海市浦东新区世纪大道 100 号',
  addressEn: '100 Century Avenue, Pudong, Shanghai',
  addressEs: 'Avenida del Siglo 100, Pudong, Shanghái',
  addressJa: '上海市浦東新区世紀大道100号',
} as const;
