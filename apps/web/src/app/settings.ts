import { readableOn } from '../lib/contrast';
import { createStore, useStore } from '../lib/store';

/** Layout preferences of the settings drawer (§2), kept in localStorage. */
export interface Settings {
  themeColor: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  pinyinSearch: boolean;
}

/** §9 defaults. */
export const DEFAULT_SETTINGS: Settings = {
  themeColor: '#409EFF',
  tagsView: true,
  fixedHeader: false,
  sidebarLogo: true,
  pinyinSearch: true,
};

export const THEME_PRESETS = [
  '#409EFF',
  '#1890FF',
  '#304156',
  '#212121',
  '#11A983',
  '#13C2C2',
  '#6959CD',
  '#F5222D',
];

/**
 * The primary colour the console draws with: the chosen theme colour, darkened as far as white
 * button text and links on white pages need for WCAG AA (4.5:1). The default blue #409EFF becomes
 * a deeper blue; a colour dark enough already stays as it is.
 */
export function primaryFor(themeColor: string): string {
  return readableOn(themeColor, '#FFFFFF');
}

const STORAGE_KEY = 'console-settings';

function load(): Settings {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const saved = raw ? (JSON.parse(raw) as Partial<Settings>) : {};
    const merged = { ...DEFAULT_SETTINGS };
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
      if (typeof saved[key] === typeof DEFAULT_SETTINGS[key]) Object.assign(merged, { [key]: saved[key] });
    }
    return merged;
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

const settingsStore = createStore<Settings>(load());

export function updateSettings(patch: Partial<Settings>): void {
  settingsStore.set((prev) => ({ ...prev, ...patch }));
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settingsStore.get()));
  } catch {
    // Private mode or a full quota: the setting still applies for this visit.
  }
}

export function resetSettings(): void {
  updateSettings(DEFAULT_SETTINGS);
}

export function useSettings(): Settings {
  return useStore(settingsStore);
}
