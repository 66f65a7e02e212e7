import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { usePositions } from './api';

// Leaflet and the clustering come only with a card that draws.
const FleetMapPage = lazy(() => import('./FleetMapPage'));

/** Asks for the positions and draws the compact map once one of the caller's projects has its map on. */
function Loaded({ popup }: { popup?: (deviceId: number) => ReactNode }) {
  const positions = usePositions(undefined);
  if (!positions.data || positions.data.projects.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <FleetMapPage compact popup={popup} />
    </Suspense>
  );
}

/**
 * The home dashboard's fleet map (issue #34), below the other cards: its positions and its code
 * (Leaflet, the clustering) are fetched only when the card scrolls into view, so opening the
 * dashboard downloads no map; nothing is drawn while no project of the caller has its map on.
 */
export default function FleetMapCard({ popup }: { popup?: (deviceId: number) => ReactNode }) {
  const slot = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = slot.current;
    if (!el || seen) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [seen]);
  return <div ref={slot} data-testid="home-fleet-map-slot" style={{ minHeight: seen ? undefined : 1 }}>{seen && <Loaded popup={popup} />}</div>;
}
