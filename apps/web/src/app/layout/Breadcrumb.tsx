import { Breadcrumb as AntBreadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { HOME_PATH, type RouteTable } from '../route-table';

/** Dashboard › parent menu › current page, in the current language. */
export function Breadcrumb({ table, compact = false }: { table: RouteTable; compact?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const home = table.byPath.get(HOME_PATH);
  const current = table.byPath.get(pathname);
  const chain = current
    ? [...current.parents.map((p) => table.byPath.get(p)).filter((r) => r !== undefined), current]
    : [];
  const items = [
    {
      key: HOME_PATH,
      title:
        current?.path === HOME_PATH ? (
          home?.title
        ) : (
          <Link to={HOME_PATH}>{home?.title}</Link>
        ),
    },
    ...chain
      .filter((r) => r.path !== HOME_PATH)
      .map((r) => ({ key: r.path, title: r.title })),
  ];
  // Mobile: only the current page fits beside the navbar buttons.
  const shown = compact && items.length > 1 ? items.slice(-1) : items;
  return (
    <AntBreadcrumb data-testid="breadcrumb" items={shown} className="console-breadcrumb" aria-label={t('navbar:breadcrumb')} />
  );
}
