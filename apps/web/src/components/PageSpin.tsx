import { Spinner } from './Spinner';

/** What a route shows while its code or data is on the way. */
export function PageSpin() {
  return (
    <div className="page-spin" style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
      <Spinner />
    </div>
  );
}
