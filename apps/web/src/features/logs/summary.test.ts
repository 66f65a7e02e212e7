import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, LANGUAGES } from '@iot/contract/plain';
import i18n from '../../lib/i18n';
import { actionLabel, logRoleLabel, readableSummary, VALUE_MAX } from './summary';

beforeEach(async () => {
  await i18n.changeLanguage('en');
});
afterAll(async () => {
  await i18n.changeLanguage('en');
});

const row = (over: Partial<Parameters<typeof readableSummary>[0]>) => ({
  entity: 'user',
  entityId: '12',
  entityName: 'alice',
  summary: '',
  result: 'success',
  ...over,
});

describe('operation-log actions', () => {
  it('every action the server declares has a name in every language, never the code', async () => {
    for (const lang of LANGUAGES) {
      await i18n.changeLanguage(lang);
      for (const action of AUDIT_ACTIONS) {
        const label = actionLabel(action);
        expect(label, `${lang} ${action}`).not.toBe(action);
        expect(label, `${lang} ${action}`).not.toMatch(/[a-z]+\.[a-z]+/);
      }
    }
  });

  it('names them in the UI language and shows an unknown code as it is', async () => {
    await i18n.changeLanguage('zh');
    expect(actionLabel('role.add')).toBe('新增角色');
    await i18n.changeLanguage('en');
    expect(actionLabel('role.add')).toBe('Create role');
    expect(actionLabel('gateway.reboot')).toBe('gateway.reboot');
    // A code naming a group of keys is not one of ours either.
    expect(actionLabel('user')).toBe('user');
  });

  it('names the acting role: built-in names translated, a deleted role by its identification', async () => {
    await i18n.changeLanguage('zh');
    expect(logRoleLabel({ role: 'ADMIN', roleName: 'Administrators' })).toBe('管理员');
    expect(logRoleLabel({ role: 'NIGHT_SHIFT_OPERATORS', roleName: 'Night shift' })).toBe('Night shift');
    expect(logRoleLabel({ role: 'GONE', roleName: '' })).toBe('GONE');
    await i18n.changeLanguage('en');
  });
});

describe('readableSummary', () => {
  it('reads "object — field: value" with labels and values in the UI language', async () => {
    await i18n.changeLanguage('en');
    const log = row({
      summary: JSON.stringify({ contactNumber: '555 0199', role: 'Administrators', language: 'zh', enabled: false }),
    });
    expect(readableSummary(log).short).toBe(
      'User alice — Contact number: 555 0199, Role: Administrators, Language: 中文, Enabled: No',
    );
    await i18n.changeLanguage('zh');
    expect(readableSummary(log).short).toBe('用户 alice — 联系电话: 555 0199, 角色: 管理员, 语言: 中文, 启用状态: 否');
    await i18n.changeLanguage('en');
  });

  it('cuts long values in the cell and keeps them whole for the tooltip', () => {
    const long = 'x'.repeat(VALUE_MAX + 30);
    const { short, full } = readableSummary(row({ summary: JSON.stringify({ corporateAddress: long }) }));
    expect(short).toBe(`User alice — Company address: ${'x'.repeat(VALUE_MAX - 1)}…`);
    expect(full).toBe(`User alice — Company address: ${long}`);
  });

  it('names an object by its id on rows written before names were recorded', () => {
    expect(readableSummary(row({ entityName: '', summary: JSON.stringify({ username: 'bob' }) })).short).toBe(
      'User #12 — Username: bob',
    );
  });

  it('translates permission codes and lists', () => {
    const { full } = readableSummary(
      row({ entity: 'role', entityName: 'Night shift', summary: JSON.stringify({ permissions: ['agent:list', 'report:daily'] }) }),
    );
    expect(full).toBe('Role Night shift — Permissions: List users, report:daily');
  });

  it('says why a refused change was refused, in the UI language', async () => {
    const refused = row({
      entity: 'role',
      entityName: 'Night shift',
      result: 'failure',
      summary: JSON.stringify({ code: 40900, message: 'This identification is already used', reason: 'identificationTaken' }),
    });
    expect(readableSummary(refused).short).toBe('Role Night shift — This identification is already used');
    await i18n.changeLanguage('zh');
    expect(readableSummary(refused).short).toBe(`角色 Night shift — ${i18n.t('refusals:identificationTaken')}`);
    await i18n.changeLanguage('en');
  });

  it('shows text that is not JSON as it is', () => {
    expect(readableSummary(row({ summary: '<b>not json</b>' })).short).toBe('User alice — <b>not json</b>');
  });
});
