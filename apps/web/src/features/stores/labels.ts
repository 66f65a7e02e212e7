import type { StockState, StoreStatus } from '@iot/contract';

export const STATUS_COLORS: Record<StoreStatus, string> = { open: 'success', closed: 'default', suspended: 'warning' };

/** One colour per stock state, the same in the list's stock column and the stock drawer. */
export const STOCK_COLORS: Record<StockState, string> = {
  available: 'success',
  charging: 'processing',
  low: 'gold',
  rented: 'blue',
  faulty: 'error',
  offline: 'default',
};
