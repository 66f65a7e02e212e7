import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, List, Space, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import { PROJECT_LIMITS } from '@iot/contract/plain';
import type { MapHandle } from '../../components/map/BaseMap';
import { RowLink } from '../../components/ListActions';
import { usePermission } from '../../lib/session';
import { useProject, useRoadSections, type RoadSection } from './api';
import { RoadSectionModal } from './RoadSectionModal';
import { useConfirmDeleteRoadSection } from './RoadSections';

/** Road sections a project map draws: the first page of 200, by order (a project has a few). */
const SECTIONS = 200;

interface Drawing {
  /** The section being redrawn; undefined: a new one. */
  section: RoadSection | null;
  points: [number, number][];
}

/**
 * A project's road sections on its map (polylines, named on hover) and, with project:edit on a
 * project the caller manages, drawn there: "Draw a road section", then a click per point, then
 * "Finish" opens the section's form with the points (which can still be typed); a section can be
 * redrawn, edited or deleted (after a confirmation) from the list under the map.
 */
export default function RoadSectionLayer({ handle, projectId }: { handle: MapHandle; projectId: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const sections = useRoadSections(projectId, 1, SECTIONS);
  const project = useProject(projectId);
  const canEdit = usePermission('project:edit') && project.data?.can.edit === true;
  const confirmDelete = useConfirmDeleteRoadSection(projectId);
  const [drawing, setDrawing] = useState<Drawing | undefined>(undefined);
  const [editing, setEditing] = useState<{ section: RoadSection | null; drawn?: [number, number][] } | undefined>(undefined);
  const items = useMemo(() => sections.data?.items ?? [], [sections.data]);

  // The saved sections.
  useEffect(() => {
    const { map, datum } = handle;
    const group = L.layerGroup().addTo(map);
    for (const s of items) {
      if (s.points.length < 2) continue;
      L.polyline(
        s.points.map(([lng, lat]) => datum.toMap(lng, lat)),
        { color: token.colorPrimary, weight: 4, opacity: 0.85, className: 'road-section' },
      )
        .bindTooltip(s.name, { sticky: true })
        .addTo(group);
    }
    return () => {
      group.remove();
    };
  }, [handle, items, token.colorPrimary]);

  // Drawing: each click on the map adds a point; the line so far is dashed.
  const active = drawing !== undefined;
  useEffect(() => {
    if (!active) return undefined;
    const { map, datum } = handle;
    const onClick = (e: L.LeafletMouseEvent) =>
      setDrawing((d) => (d && d.points.length < PROJECT_LIMITS.points ? { ...d, points: [...d.points, datum.fromMap(e.latlng.lat, e.latlng.lng)] } : d));
    map.on('click', onClick);
    map.getContainer().style.cursor = 'crosshair';
    return () => {
      map.off('click', onClick);
      map.getContainer().style.cursor = '';
    };
  }, [active, handle]);
  useEffect(() => {
    if (!drawing || drawing.points.length === 0) return undefined;
    const { map, datum } = handle;
    const at = drawing.points.map(([lng, lat]) => datum.toMap(lng, lat));
    const group = L.layerGroup().addTo(map);
    L.polyline(at, { color: token.colorWarning, weight: 3, dashArray: '6 6', className: 'road-draft' }).addTo(group);
    for (const p of at) L.circleMarker(p, { radius: 4, color: token.colorWarning, interactive: false }).addTo(group);
    return () => {
      group.remove();
    };
  }, [drawing, handle, token.colorWarning]);

  const finish = () => {
    if (!drawing) return;
    setEditing({ section: drawing.section, drawn: drawing.points });
    setDrawing(undefined);
  };

  return (
    <Card size="small" title={t('projects:roads.mapTitle')} style={{ marginTop: 12 }} data-testid="road-map-panel">
      {drawing ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert
            type="info"
            showIcon
            title={t('projects:roads.drawHint', { count: drawing.points.length })}
            data-testid="road-draw-hint"
          />
          <Space wrap>
            <Button type="primary" disabled={drawing.points.length < 2} onClick={finish} data-testid="road-draw-finish">
              {t('projects:roads.drawFinish')}
            </Button>
            <Button
              disabled={drawing.points.length === 0}
              onClick={() => setDrawing((d) => d && { ...d, points: d.points.slice(0, -1) })}
              data-testid="road-draw-undo"
            >
              {t('projects:roads.drawUndo')}
            </Button>
            <Button onClick={() => setDrawing(undefined)}>{t('common:cancel')}</Button>
          </Space>
        </Space>
      ) : (
        canEdit && (
          <Button type="primary" onClick={() => setDrawing({ section: null, points: [] })} data-testid="road-draw">
            {t('projects:roads.draw')}
          </Button>
        )
      )}
      <List<RoadSection>
        size="small"
        loading={sections.isLoading}
        dataSource={items}
        locale={{ emptyText: t('projects:roads.none') }}
        data-testid="road-map-list"
        renderItem={(s) => (
          <List.Item
            key={s.id}
            actions={
              canEdit
                ? [
                    <RowLink key="redraw" testId={`road-redraw-${s.id}`} onClick={() => setDrawing({ section: s, points: [] })}>
                      {t('projects:roads.redraw')}
                    </RowLink>,
                    <RowLink key="edit" testId={`road-edit-${s.id}`} onClick={() => setEditing({ section: s })}>
                      {t('projects:actions.edit')}
                    </RowLink>,
                    <Button key="delete" type="link" size="small" danger onClick={() => confirmDelete(s)} data-testid={`road-delete-${s.id}`}>
                      {t('projects:actions.delete')}
                    </Button>,
                  ]
                : []
            }
          >
            <Typography.Text>{s.name}</Typography.Text>
            <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
              {t('projects:roads.points', { count: s.points.length })}
            </Typography.Text>
          </List.Item>
        )}
      />
      <RoadSectionModal
        projectId={projectId}
        open={editing !== undefined}
        section={editing?.section ?? null}
        drawn={editing?.drawn}
        onClose={() => setEditing(undefined)}
      />
    </Card>
  );
}
