import { getSizeCookie, setSizeCookie, type UiSize } from './cookies';
import { createStore, useStore } from './store';

/** The size of every control (§9: small, medium, large), kept in a cookie, applied by antd's ConfigProvider. */
const sizeStore = createStore<UiSize>(getSizeCookie());

export function useUiSize(): UiSize {
  return useStore(sizeStore);
}

export function setUiSize(size: UiSize): void {
  setSizeCookie(size);
  sizeStore.set(() => size);
}
