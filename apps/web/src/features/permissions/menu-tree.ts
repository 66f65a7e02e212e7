import type { Language, MenuOption } from '@iot/contract';
import { localizedName } from '../../lib/acl-labels';

export interface MenuTreeOption {
  value: number;
  title: string;
  children: MenuTreeOption[];
}

/** Menu options as TreeSelect data, titled in the UI language. */
export function menuTreeData(options: MenuOption[], lang: Language): MenuTreeOption[] {
  return options.map((o) => ({ value: o.id, title: localizedName(o, lang), children: menuTreeData(o.children, lang) }));
}

/** id → name in the UI language, over the whole tree. */
export function menuNames(options: MenuOption[], lang: Language, out = new Map<number, string>()): Map<number, string> {
  for (const o of options) {
    out.set(o.id, localizedName(o, lang));
    menuNames(o.children, lang, out);
  }
  return out;
}
