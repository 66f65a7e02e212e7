import { Drawer } from 'antd';
import type { RouteTable } from '../route-table';
import { Sidebar, SIDEBAR_WIDTH } from './Sidebar';

/** The sidebar of a phone-width screen: a drawer from the left (its own chunk: desktops never need it). */
export function MobileSidebar({ table, open, onClose }: { table: RouteTable; open: boolean; onClose: () => void }) {
  return (
    <Drawer placement="left" open={open} onClose={onClose} size={SIDEBAR_WIDTH} closable={false} styles={{ body: { padding: 0 } }}>
      <Sidebar table={table} collapsed={false} />
    </Drawer>
  );
}
