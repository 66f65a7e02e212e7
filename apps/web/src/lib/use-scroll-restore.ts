import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * The window's scroll position of each list address (path and query) seen in this tab. The
 * browser's own restoration runs before a list's rows are back, on a page still too short, so
 * the list restores it itself once its rows are shown.
 */
const positions = new Map<string, number>();

/**
 * Remembers how far the window is scrolled on this address and, on coming back to the same
 * address (Back, the tags bar, a link), scrolls there again once `ready` (the rows are shown).
 */
export function useScrollRestore(ready: boolean): void {
  const location = useLocation();
  const address = location.pathname + location.search;
  const restored = useRef<string | null>(null);

  useEffect(() => {
    // A list still mounted while the next page loads must not record that page's scrolling.
    const onScroll = () => {
      if (window.location.pathname + window.location.search === address) positions.set(address, window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [address]);

  useEffect(() => {
    if (!ready || restored.current === address) return;
    const y = positions.get(address);
    if (y === undefined || y === 0) {
      restored.current = address;
      return;
    }
    // After the rows are laid out: the page is tall enough to scroll that far again.
    const frame = requestAnimationFrame(() => {
      restored.current = address;
      window.scrollTo({ top: y, behavior: 'instant' });
    });
    return () => cancelAnimationFrame(frame);
  }, [ready, address]);
}
