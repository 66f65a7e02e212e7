import { z } from 'zod';

/**
 * A node of the menu tree as the console receives it (§2, §3). Recursive through a getter (zod 4),
 * so `MenuNode` is the schema's type; `.meta({ id })` names it as an OpenAPI component.
 */
export const menuNodeSchema = z
  .object({
    id: z.number().int(),
    parentId: z.number().int(),
    name: z.string(),
    nameEn: z.string(),
    nameEs: z.string(),
    nameJa: z.string(),
    /** 1 in-site route, 2 out-of-site link. */
    jumpType: z.number().int(),
    /** Path segment (`type` under `/device`) or, for out-of-site links, the full URL. */
    menuUrl: z.string(),
    /** 1: route without a page component; 0: loads a page. */
    menuType: z.number().int(),
    sort: z.number().int(),
    icon: z.string(),
    identification: z.string(),
    /** 0 hides the item from the sidebar while keeping its route. */
    isShow: z.number().int(),
    get children(): z.ZodArray<typeof menuNodeSchema> {
      return z.array(menuNodeSchema);
    },
  })
  .meta({ id: 'MenuNode' });
export type MenuNode = z.infer<typeof menuNodeSchema>;
