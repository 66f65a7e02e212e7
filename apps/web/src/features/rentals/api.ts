import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rentalRoutes, storeRoutes, type RentalAction } from '@iot/contract/plain';
import type { EndpointQuery, RentalCreate } from '@iot/contract';
import { api } from '../../lib/api';
import { feedbackMessage } from '../../lib/feedback';
import i18n from '../../lib/i18n';
import { rentalKeys, storeKeys } from '../../lib/query-keys';

export type RentalListParams = EndpointQuery<typeof rentalRoutes.list>;
export type RentalSort = NonNullable<RentalListParams['sort']>;

export function useRentalList(params: RentalListParams) {
  return useQuery({ queryKey: rentalKeys.list(params), queryFn: () => api(rentalRoutes.list, { query: params }), placeholderData: keepPreviousData });
}

/** The stores a rental may be made at (the caller's, up to 200, by name). */
export function useStoreOptions() {
  const params = { limit: 200, sort: 'name', order: 'asc' } as const;
  return useQuery({ queryKey: storeKeys.list(params), queryFn: () => api(storeRoutes.list, { query: params }) });
}

/** A store's packs that can be rented now. */
export function useAvailablePacks(storeId: number | undefined) {
  const params = { storeId: storeId!, state: 'available', limit: 200 } as const;
  return useQuery({ queryKey: storeKeys.stock(params), queryFn: () => api(storeRoutes.stock, { query: params }), enabled: !!storeId });
}

export type SummaryParams = EndpointQuery<typeof rentalRoutes.summary>;

/** The agent view's figures (stores, stock, open rentals, revenue per period). */
export function useSummary(params: SummaryParams) {
  return useQuery({ queryKey: rentalKeys.summary(params), queryFn: () => api(rentalRoutes.summary, { query: params }), placeholderData: keepPreviousData });
}

export function useReturnCheck(id: number | undefined) {
  return useQuery({ queryKey: rentalKeys.check(id), queryFn: () => api(rentalRoutes.returnCheck, { query: { id: id! } }), enabled: !!id, gcTime: 0 });
}

export function useInvalidate() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: rentalKeys.all });
    void qc.invalidateQueries({ queryKey: storeKeys.all });
  };
}

export function useCreateRental() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RentalCreate) => api(rentalRoutes.add, { body, silent: true }),
    onSuccess: () => {
      feedbackMessage().success(i18n.t('crud:created'));
      invalidate();
    },
  });
}

/** One transition: activate, cancel, lose, or return (with the return check). */
export function useTransition() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ id, action }: { id: number; action: RentalAction }) => {
      if (action === 'return') return api(rentalRoutes.giveBack, { body: { id } });
      await api(rentalRoutes[action], { body: { id } });
      return null;
    },
    onSuccess: (res, v) => {
      feedbackMessage().success(i18n.t(res && !res.check.passed ? 'rentals:done.returnedFaulty' : `rentals:done.${v.action}`));
      invalidate();
    },
  });
}

/** A lost pack's discharge switch off through the command channel (rent:command). */
export function useDischargeOff() {
  return useMutation({
    mutationFn: (id: number) => api(rentalRoutes.dischargeOff, { body: { id } }),
    onSuccess: () => feedbackMessage().success(i18n.t('rentals:done.dischargeOff')),
  });
}
