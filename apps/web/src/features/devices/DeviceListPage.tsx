import { useRef } from 'react';
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
  // A new ?projectId= from outside (a project's link) starts a fresh table; Reset, which drops it
  // itself, keeps the table (already cleared) so that nothing typed right after is lost.
  const table = useRef({ projectId, generation: 0, resetting: false });
  if (table.current.projectId !== projectId) {
    if (!table.current.resetting) table.current.generation += 1;
    table.current = { projectId, generation: table.current.generation, resetting: false };
  }
  // Waits for the project's name so the filter shows it.
  const ready = !projectId || !project.isLoading;
  return (
    <Card title={t('devices:title')} data-testid="device-list-page">
      {ready && (
        <DeviceTable
          key={table.current.generation}
          initialProjectId={projectId}
          initialProjectName={project.data ?? undefined}
          // Reset also forgets the project the list was opened with, in the address too.
          onReset={
            projectId
              ? () => {
                  table.current.resetting = true;
                  setParams({}, { replace: true });
                }
              : undefined
          }
        />
      )}
    </Card>
  );
}
