import { lazy, Suspense } from 'react';
import DashboardPage from '../features/dashboard/DashboardPage';
import DeviceBrief from '../features/devices/details/DeviceBrief';
import FleetMapCard from '../features/map/FleetMapCard';
import { usePermission } from '../lib/session';

// Loaded only when shown: the signed-in shell stays within its script budget (login.spec.ts).
const AgentStrip = lazy(() => import('../features/rentals/AgentStrip'));
const ProjectWeather = lazy(() => import('../features/projects/ProjectWeather').then((m) => ({ default: m.ProjectWeather })));

/**
 * /dashboard: the dashboard feature's page with the map feature's fleet card (issue #34: shown
 * when one of the caller's projects has its map on), the device feature's brief in its popups,
 * the projects feature's forecast on the projects card for projects with the weather switch on
 * and, for an agent (rent:overview), the rentals feature's figures leading to the agent view.
 * Features never import each other; the app puts them together.
 */
export default function Dashboard() {
  const canMap = usePermission('map:view');
  const isAgent = usePermission('rent:overview');
  return (
    <DashboardPage
      fleetMap={canMap ? <FleetMapCard popup={(id) => <DeviceBrief id={id} />} /> : undefined}
      projectWeather={(id) => (
        <Suspense fallback={null}>
          <ProjectWeather projectId={id} compact />
        </Suspense>
      )}
      agentView={
        isAgent ? (
          <Suspense fallback={null}>
            <AgentStrip />
          </Suspense>
        ) : undefined
      }
    />
  );
}
