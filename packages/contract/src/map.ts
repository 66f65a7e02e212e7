import { z } from 'zod';
import { idSchema } from './envelope.js';

/**
 * The fleet and project maps (issue #35): where the caller's devices are. Devices of projects
 * whose map is off (the project's map switch), devices in map mode 2 ("not on the map") and
 * devices without a position are left out; devices in no project are shown.
 */
export const mapPositionsQuerySchema = z.object({
  /** One project's map. */
  projectId: idSchema.optional(),
  typeId: idSchema.optional(),
});

/**
 * The devices' positions in columns (one array per field, the same length and order, by id):
 * 50,000 devices in a compact answer the browser reads without building an object per device.
 * Positions are WGS-84: a fixed device's typed position (map mode 1), a GPS device's newest fix.
 */
export const mapPositionsSchema = z
  .object({
    ids: z.array(z.number().int()),
    lng: z.array(z.number()),
    lat: z.array(z.number()),
    /** 1 online, 0 offline. */
    online: z.array(z.number().int()),
    /** The device's warning level 0–4 (the worst active alarm; decision 0023). */
    level: z.array(z.number().int()),
    /** Project id, 0 for none. */
    project: z.array(z.number().int()),
    type: z.array(z.number().int()),
    /** Names of the projects and types named above, for filters and popups. */
    projects: z.array(z.object({ id: z.number().int(), name: z.string() })),
    types: z.array(z.object({ id: z.number().int(), name: z.string() })),
    /** More devices matched than one answer carries (MAP_LIMITS.devices). */
    truncated: z.boolean(),
  })
  .meta({ id: 'MapPositions' });
export type MapPositions = z.infer<typeof mapPositionsSchema>;
