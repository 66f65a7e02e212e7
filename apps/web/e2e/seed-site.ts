/**
 * Run by the Playwright web servers before the console starts (`node --import tsx …`): applies
 * the migrations to DATA_DIR and stores the site configuration with the E2E contact details. The
 * server's own seed then keeps this row, as it keeps any administrator's edit.
 */
import { openDatabase } from '../../server/src/db/client.js';
import { siteConfig } from '../../server/src/db/schema/index.js';
import { SITE_DEFAULTS } from '../../server/src/db/seed/site.js';
import { SITE_CONTACT } from './site-contact';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('seed-site: DATA_DIR is not set');
const database = await openDatabase({ dataDir });
const data = { ...SITE_DEFAULTS, ...SITE_CONTACT };
await database.db.insert(siteConfig).values({ id: 1, data }).onConflictDoUpdate({ target: siteConfig.id, set: { data } });
await database.close();
