import { Card } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useProjectName } from './api';
import { DeviceTable } from './DeviceTable';

/**
 * /device/list (device:list; the old /project/devicelist redirects here). The list's filters,
 * sort and page live in the address (`?projectId=&q=&page=`), so a project's link opens it on
 * that project and Back from a device returns to the same list.
 */
export default function DeviceListPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = Number(params.get('projectId'));
  const projectId = Number.isInteger(raw) && raw > 0 ? raw : undefined;
  // The project filter shows the name of a project given by the address.
  const project = useProjectName(projectId);
  return (
    <Card title={t('devices:title')} data-testid="device-list-page">
      <DeviceTable inAddress projectNames={projectId && project.data ? { [projectId]: project.data } : undefined} />
    </Card>
  );
}
