import { z } from 'zod';

/** A node of the menu tree as the console receives it (§2, §3). */
export interface MenuNode {
  id: number;
  parentId: number;
  name: string;
  nameEn: string;
  nameEs: string;
  nameJa: string;
  /** 1 in-site route, 2 out-of-site link. */
  jumpType: number;
  /** Path segment (`type` under `/device`) or, for out-of-site links, the full URL. */
  menuUrl: string;
  /** 1: route without a page component; 0: loads a page. */
  menuType: number;
  sort: number;
  icon: string;
  identification: string;
  /** 0 hides the item from the sidebar while keeping its route. */
  isShow: number;
  children: MenuNode[];
}

export const menuNodeSchema: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    parentId: z.number().int(),
    name: z.string(),
    nameEn: z.string(),
    nameEs: z.string(),
    nameJa: z.string(),
    jumpType: z.number().int(),
    menuUrl: z.string(),
    menuType: z.number().int(),
    sort: z.number().int(),
    icon: z.string(),
    identification: z.string(),
    isShow: z.number().int(),
    children: z.array(menuNodeSchema),
  }),
).meta({ id: 'MenuNode' });
