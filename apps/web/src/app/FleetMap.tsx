import DeviceBrief from '../features/devices/details/DeviceBrief';
import FleetMapPage from '../features/map/FleetMapPage';

/**
 * /project/map: the map feature's fleet and project maps, with the device feature's brief in
 * popups. Features never import each other; the app puts them together.
 */
export default function FleetMap() {
  return <FleetMapPage popup={(id) => <DeviceBrief id={id} />} />;
}
