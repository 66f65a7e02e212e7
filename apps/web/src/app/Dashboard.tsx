import DashboardPage from '../features/dashboard/DashboardPage';
import DeviceBrief from '../features/devices/details/DeviceBrief';
import FleetMapCard from '../features/map/FleetMapCard';
import { ProjectWeather } from '../features/projects/ProjectWeather';
import { usePermission } from '../lib/session';

/**
 * /dashboard: the dashboard feature's page with the map feature's fleet card (issue #34: shown
 * when one of the caller's projects has its map on) and the device feature's brief in its popups.
 * The projects card shows the projects feature's forecast for projects with the weather switch on.
 * Features never import each other; the app puts them together.
 */
export default function Dashboard() {
  const canMap = usePermission('map:view');
  return (
    <DashboardPage
      fleetMap={canMap ? <FleetMapCard popup={(id) => <DeviceBrief id={id} />} /> : undefined}
      projectWeather={(id) => <ProjectWeather projectId={id} compact />}
    />
  );
}
