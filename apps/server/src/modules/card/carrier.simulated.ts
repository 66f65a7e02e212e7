import crypto from 'node:crypto';
import type { SimBasicInfo, VoiceOffering, WhitelistEntry } from '@iot/contract';
import { CarrierError, type CardRef, type CarrierAdapter } from './carrier.js';

/**
 * The built-in simulated carrier (CARRIER=simulated, the default): answers like OneLink from
 * memory, with values derived from the card's number so they are stable across calls. A number
 * ending in 0000 is "unknown to the carrier", so the console's error path can be seen.
 */
export class SimulatedCarrier implements CarrierAdapter {
  readonly name = 'simulated';
  private readonly whitelists = new Map<string, WhitelistEntry[]>();

  constructor(readonly whitelistMax = 10) {}

  private idOf(card: CardRef): string {
    const id = card.msisdn || card.iccid || card.imsi || '';
    if (!id) throw new CarrierError('noCardId', 'The card has no MSISDN, ICCID or IMSI');
    if (id.endsWith('0000')) throw new CarrierError('12006', 'The card does not exist on the carrier platform (simulated)');
    return id;
  }

  /** A stable number in [0, n) from the card's id and a salt. */
  private pick(id: string, salt: string, n: number): number {
    return crypto.createHash('sha256').update(`${salt}:${id}`).digest().readUInt32BE(0) % n;
  }

  async basicInfo(card: CardRef): Promise<SimBasicInfo> {
    const id = this.idOf(card);
    const day = (salt: string, back: number) => {
      const d = new Date(Date.UTC(2024, 0, 1) + this.pick(id, salt, back) * 86_400_000);
      return d.toISOString().slice(0, 10).replace(/-/g, '') + '000000';
    };
    return {
      msisdn: card.msisdn || `1440${this.pick(id, 'msisdn', 1e9).toString().padStart(9, '0')}`,
      imsi: card.imsi || `46004${this.pick(id, 'imsi', 1e9).toString().padStart(10, '0')}`,
      iccid: card.iccid || `8986${this.pick(id, 'iccid', 1e9).toString().padStart(16, '0')}`,
      activeDate: day('active', 300),
      openDate: day('open', 100),
    };
  }

  async voiceMargin(card: CardRef): Promise<VoiceOffering[]> {
    const id = this.idOf(card);
    const total = 100 + 50 * this.pick(id, 'total', 5);
    const used = this.pick(id, 'used', total);
    return [{ offeringId: '390000020477', offeringName: '物联网语音套餐', totalAmount: total, useAmount: used, remainAmount: total - used }];
  }

  async voiceWhitelist(card: CardRef): Promise<{ totalCount: number; numbers: WhitelistEntry[] }> {
    const numbers = this.whitelists.get(this.idOf(card)) ?? [];
    return { totalCount: numbers.length, numbers: numbers.map((n) => ({ ...n })) };
  }

  async configVoiceWhitelist(card: CardRef, operation: 'add' | 'delete', whiteNumber: string): Promise<void> {
    const id = this.idOf(card);
    const list = this.whitelists.get(id) ?? [];
    const has = list.some((n) => n.whiteNumber === whiteNumber);
    if (operation === 'add') {
      if (has) throw new CarrierError('13018', 'The number is already on the whitelist');
      if (list.length >= this.whitelistMax) throw new CarrierError('13019', `The whitelist holds at most ${this.whitelistMax} numbers`);
      this.whitelists.set(id, [...list, { whiteNumber, status: '1' }]);
    } else {
      if (!has) throw new CarrierError('13020', 'The number is not on the whitelist');
      this.whitelists.set(id, list.filter((n) => n.whiteNumber !== whiteNumber));
    }
  }
}
