import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '@iot/contract';
import { mailtoHref, siteContact, telHref } from './site';

describe('site contact', () => {
  const config = {
    contactTel: ' +86 (21) 5555-0100 ',
    email: 'support@example.com',
    address: '上海市世纪大道 100 号',
    addressEn: '100 Century Avenue, Shanghai',
    addressEs: '',
    addressJa: '',
  } as SiteConfig;

  it('takes the address in the UI language, English when that one is empty', () => {
    expect(siteContact(config, 'zh')).toEqual({ tel: '+86 (21) 5555-0100', address: '上海市世纪大道 100 号', email: 'support@example.com' });
    expect(siteContact(config, 'en').address).toBe('100 Century Avenue, Shanghai');
    expect(siteContact(config, 'es').address).toBe('100 Century Avenue, Shanghai');
    expect(siteContact(undefined, 'en')).toEqual({ tel: '', address: '', email: '' });
  });

  it('links a telephone number for dialers and a plain e-mail address for mail', () => {
    expect(telHref('+86 (21) 5555-0100')).toBe('tel:+862155550100');
    expect(telHref('ext. only')).toBeUndefined();
    expect(mailtoHref('support@example.com')).toBe('mailto:support@example.com');
    expect(mailtoHref('a@b.c?bcc=x@y.z')).toBeUndefined();
    expect(mailtoHref('not an address')).toBeUndefined();
  });
});
