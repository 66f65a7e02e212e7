import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia?.(QUERY);
  if (!list) return () => {};
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

function current(): boolean {
  return window.matchMedia?.(QUERY).matches ?? false;
}

/**
 * True when the operating system asks for reduced motion. The console then turns off antd's
 * open/close animations (dropdowns, selects, drawers, messages) and the login particles.
 */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, current, () => false);
}
