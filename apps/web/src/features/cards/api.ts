import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cardRoutes, cardOrderRoutes, cardPriceRoutes } from '@iot/contract/plain';
import type { CardFields, EndpointBody, EndpointData, EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { cardKeys, cardOrderKeys, cardPriceKeys } from '../../lib/query-keys';

export type CardListParams = EndpointQuery<typeof cardRoutes.list>;
export type CardSort = NonNullable<CardListParams['sort']>;
export type OrderListParams = EndpointQuery<typeof cardOrderRoutes.list>;
export type OrderSort = NonNullable<OrderListParams['sort']>;
export type PriceListParams = EndpointQuery<typeof cardPriceRoutes.list>;
export type PriceSort = NonNullable<PriceListParams['sort']>;
export type PriceBody = EndpointBody<typeof cardPriceRoutes.add>;

export function useCardList(params: CardListParams) {
  return useQuery({
    queryKey: cardKeys.list(params),
    queryFn: () => api(cardRoutes.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

export function useCard(id: number | undefined) {
  return useQuery({ queryKey: cardKeys.item(id), queryFn: () => api(cardRoutes.item, { query: { id: id! } }), enabled: !!id });
}

type CarrierKind = 'basicInfo' | 'voiceMargin' | 'whitelist';

/** Live carrier data: cached briefly by the server; `refresh` asks the carrier now. */
export function useCarrier<K extends CarrierKind>(kind: K, id: number | undefined) {
  const qc = useQueryClient();
  const key = cardKeys.carrier(kind, id);
  // The three calls share their query schema; a carrier failure is an answer (ok: false).
  const call = (refresh: boolean) =>
    api(cardRoutes[kind] as typeof cardRoutes.basicInfo, { query: { id: id!, refresh: refresh ? 'true' : 'false' } }) as unknown as Promise<
      EndpointData<(typeof cardRoutes)[K]>
    >;
  const query = useQuery({ queryKey: key, queryFn: () => call(false), enabled: !!id });
  const refresh = async () => {
    qc.setQueryData(key, await call(true));
  };
  return { data: query.data, isLoading: query.isLoading, isError: query.isError, refresh };
}

export function useInvalidateCards() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: cardKeys.all });
    void qc.invalidateQueries({ queryKey: cardOrderKeys.all });
  };
}

export function useSaveCard() {
  const invalidate = useInvalidateCards();
  return useMutation({
    mutationFn: ({ id, fields }: { id?: number; fields: CardFields }) =>
      id ? api(cardRoutes.edit, { body: { ...fields, id }, silent: true }) : api(cardRoutes.add, { body: fields, silent: true }),
    onSuccess: invalidate,
  });
}

export function useDeleteCards() {
  const invalidate = useInvalidateCards();
  return useMutation({ mutationFn: (ids: number[]) => api(cardRoutes.remove, { query: { id: ids.join(',') } }), onSuccess: invalidate });
}

export function useConfigWhitelist(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<typeof cardRoutes.configWhitelist>, 'id'>) =>
      api(cardRoutes.configWhitelist, { body: { ...body, id }, silent: true }),
    onSettled: async () => {
      const fresh = await api(cardRoutes.whitelist, { query: { id, refresh: 'true' } });
      qc.setQueryData(cardKeys.carrier('whitelist', id), fresh);
    },
  });
}

export function useOrderList(params: OrderListParams) {
  return useQuery({
    queryKey: cardOrderKeys.list(params),
    queryFn: () => api(cardOrderRoutes.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

/** One order; polled while its QR code is shown, so a payment shows without a reload. */
export function useOrder(id: number | undefined, pollMs?: number) {
  return useQuery({
    queryKey: cardOrderKeys.item(id),
    queryFn: () => api(cardOrderRoutes.item, { query: { id: id! } }),
    enabled: !!id,
    refetchInterval: pollMs,
  });
}

export function useCreateOrder() {
  const invalidate = useInvalidateCards();
  return useMutation({
    mutationFn: (body: EndpointBody<typeof cardOrderRoutes.add>) => api(cardOrderRoutes.add, { body, silent: true }),
    onSuccess: invalidate,
  });
}

export function useEditOrder() {
  const invalidate = useInvalidateCards();
  return useMutation({ mutationFn: (body: EndpointBody<typeof cardOrderRoutes.edit>) => api(cardOrderRoutes.edit, { body }), onSuccess: invalidate });
}

export function useDeleteOrders() {
  const invalidate = useInvalidateCards();
  return useMutation({ mutationFn: (ids: number[]) => api(cardOrderRoutes.remove, { query: { id: ids.join(',') } }), onSuccess: invalidate });
}

export function usePayQr(id: number | undefined) {
  return useQuery({ queryKey: cardOrderKeys.payQr(id), queryFn: () => api(cardOrderRoutes.payQr, { query: { id: id! } }), enabled: !!id, retry: false });
}

export function useSimulatePay() {
  const invalidate = useInvalidateCards();
  return useMutation({ mutationFn: (id: number) => api(cardOrderRoutes.simulatePay, { body: { id } }), onSuccess: invalidate });
}

/** The prices an order may be made at (card:order). */
export function usePriceOptions(enabled: boolean) {
  return useQuery({ queryKey: cardPriceKeys.options, queryFn: () => api(cardPriceRoutes.options), enabled });
}

/** The price list (card:price). */
export function usePriceList(params: PriceListParams, enabled: boolean) {
  return useQuery({
    queryKey: cardPriceKeys.list(params),
    queryFn: () => api(cardPriceRoutes.list, { query: params }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useSavePrice() {
  const qc = useQueryClient();
  return useMutation({
    // `silent`: the form shows the refusal beside its field; a switch in the list reports it itself.
    mutationFn: ({ id, body, silent = true }: { id?: number; body: Partial<PriceBody>; silent?: boolean }) =>
      id
        ? api(cardPriceRoutes.edit, { body: { ...body, kind: undefined, id } as EndpointBody<typeof cardPriceRoutes.edit>, silent })
        : api(cardPriceRoutes.add, { body: body as PriceBody, silent }),
    onSuccess: () => qc.invalidateQueries({ queryKey: cardPriceKeys.all }),
  });
}

export function useDeletePrices() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => api(cardPriceRoutes.remove, { query: { id: ids.join(',') } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: cardPriceKeys.all }),
  });
}

/** Money in cents as yuan with two decimals. */
export const yuan = (cents: number) => `¥${(cents / 100).toFixed(2)}`;
