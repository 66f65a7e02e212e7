import { Card } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useProjectName } from './api';
import { DeviceTable } from './DeviceTable';

/** /device/list (device:list; the old /project/devicelist redirects here), optionally opened on a project with ?projectId=. */
export default function DeviceListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('projectId'));
  const projectId = Number.isInteger(raw) && raw > 0 ? raw : undefined;
  const project = useProjectName(projectId);
  // Waits for the project's name so the filter shows it; a new ?projectId= starts a fresh table.
  const ready = !projectId || !project.isLoading;
  return (
    <Card title={t('devices:title')} data-testid="device-list-page">
      {ready && (
        <DeviceTable
          key={projectId ?? 'all'}
          initialProjectId={projectId}
          initialProjectName={project.data ?? undefined}
          // Reset also forgets the project the list was opened with, in the address too.
          onReset={projectId ? () => setParams({}, { replace: true }) : undefined}
        />
      )}
    </Card>
  );
}
