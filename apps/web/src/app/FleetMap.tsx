import DeviceBrief from '../features/devices/details/DeviceBrief';
import FleetMapPage from '../features/map/FleetMapPage';
import RoadSectionLayer from '../features/projects/RoadSectionLayer';

/**
 * /project/map: the map feature's fleet and project maps, with the device feature's brief in
 * popups and the project feature's road sections on a project's map. Features never import each
 * other; the app puts them together.
 */
export default function FleetMap() {
  return (
    <FleetMapPage
      popup={(id) => <DeviceBrief id={id} />}
      layers={(handle, projectId) => <RoadSectionLayer handle={handle} projectId={projectId} />}
    />
  );
}
