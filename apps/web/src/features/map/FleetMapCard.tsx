import { lazy, Suspense, type ReactNode } from 'react';
import { usePositions } from './api';

// Leaflet and the clustering come only with a card that draws.
const FleetMapPage = lazy(() => import('./FleetMapPage'));

/**
 * The home dashboard's fleet map (issue #34): nothing while none of the caller's projects has its
 * map on; then the compact fleet map, its code loaded only then.
 */
export default function FleetMapCard({ popup }: { popup?: (deviceId: number) => ReactNode }) {
  const positions = usePositions(undefined);
  if (!positions.data || positions.data.projects.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <FleetMapPage compact popup={popup} />
    </Suspense>
  );
}
