import { DeviceTable } from '../features/devices/DeviceTable';
import ProjectDetailsPage from '../features/projects/ProjectDetailsPage';

/**
 * /project/details: the project feature's page with the device registry's table in its devices
 * tab. Features never import each other; the app puts the two together.
 */
export default function ProjectDetails() {
  return (
    <ProjectDetailsPage
      devices={(project) => <DeviceTable key={project.id} fixedProjectId={project.id} fixedProjectName={project.name} />}
    />
  );
}
