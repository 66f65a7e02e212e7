import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from 'react-router';

/**
 * `/redirect/<path>`: the tags-view "refresh". Passing through this route unmounts the page, and
 * coming straight back mounts it afresh with its data fetched again.
 */
export default function RedirectBack() {
  const { '*': rest = '' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    // "Refresh" means fresh data: everything cached is marked stale, so the page fetches anew.
    void queryClient.invalidateQueries({ refetchType: 'none' });
    void navigate(`/${rest}${search}`, { replace: true });
  }, [navigate, queryClient, rest, search]);
  return null;
}
