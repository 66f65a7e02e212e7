import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';

/**
 * `/redirect/<path>`: the tags-view "refresh". Passing through this route unmounts the page, and
 * coming straight back mounts it afresh.
 */
export default function RedirectBack() {
  const { '*': rest = '' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(`/${rest}${search}`, { replace: true });
  }, [navigate, rest, search]);
  return null;
}
