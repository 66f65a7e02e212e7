import type { SimBasicInfo, VoiceOffering, WhitelistEntry } from '@iot/contract';

/**
 * The carrier side of a SIM card, shaped on China Mobile's OneLink IoT card operations
 * (docs/decisions/0019-sim-cards-carrier-adapter-and-derived-link.md): basic info (CMIOT_API23S00), voice margin (23U05), the
 * member voice whitelist query (23M15) and configuration (23M16). Two implementations: the
 * OneLink HTTP adapter (carrier.onelink.ts) and the built-in simulated carrier
 * (carrier.simulated.ts) for the demo and tests.
 */
export interface CardRef {
  /** One of the three identifies the card; the adapter prefers MSISDN, then ICCID, then IMSI. */
  msisdn?: string;
  iccid?: string;
  imsi?: string;
  /** The carrier group of the card (OneLink groupId); looked up when missing. */
  groupId?: string;
}

export interface CarrierAdapter {
  /** `onelink` or `simulated`: shown with each answer. */
  readonly name: string;
  /** Whitelist numbers a member card may hold. */
  readonly whitelistMax: number;
  basicInfo(card: CardRef): Promise<SimBasicInfo>;
  voiceMargin(card: CardRef): Promise<VoiceOffering[]>;
  voiceWhitelist(card: CardRef): Promise<{ totalCount: number; numbers: WhitelistEntry[] }>;
  configVoiceWhitelist(card: CardRef, operation: 'add' | 'delete', whiteNumber: string): Promise<void>;
}

/** The carrier refused or could not be reached: its code and message are shown as they are. */
export class CarrierError extends Error {
  constructor(
    /** The carrier's status code (`12021`…), or `network`, `timeout`, `badAnswer`, `notConfigured`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CarrierError';
  }
}

/** The identifying parameter of a card for a carrier call. */
export function cardKey(card: CardRef): { msisdn: string } | { iccid: string } | { imsi: string } {
  if (card.msisdn) return { msisdn: card.msisdn };
  if (card.iccid) return { iccid: card.iccid };
  if (card.imsi) return { imsi: card.imsi };
  throw new CarrierError('noCardId', 'The card has no MSISDN, ICCID or IMSI');
}
