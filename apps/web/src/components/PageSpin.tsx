import { Spin } from 'antd';

/** What a route shows while its code or data is on the way. */
export function PageSpin() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
      <Spin />
    </div>
  );
}
