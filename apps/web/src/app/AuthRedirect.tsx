import { Navigate, useSearchParams } from 'react-router';
import { safeRedirect } from '../lib/redirect';

/** `/auth-redirect?redirect=<path>`: a landing point for sign-in hand-offs; forwards on. */
export default function AuthRedirect() {
  const [params] = useSearchParams();
  return <Navigate to={safeRedirect(params.get('redirect'))} replace />;
}
