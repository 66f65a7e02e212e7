import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode, REFUSALS, refusalMessage } from '@iot/contract/plain';
import { ApiError, describeError } from './http';
import i18n from './i18n';

afterAll(async () => {
  await i18n.changeLanguage('en');
});

describe('describeError', () => {
  const projectHasDevices = new ApiError(
    ErrorCode.CONFLICT,
    refusalMessage('projectHasDevices', { count: 2 }),
    { reason: 'projectHasDevices', params: { count: 2 } },
  );

  it('shows a refusal reason in the UI language with its params', async () => {
    await i18n.changeLanguage('zh');
    expect(describeError(projectHasDevices)).toBe('该项目下还有 2 台设备，请先将其移到其他项目');
    await i18n.changeLanguage('ja');
    expect(describeError(projectHasDevices)).toBe(
      'このプロジェクトにはまだ 2 台のデバイスがあります。先に別のプロジェクトへ移動してください',
    );
    await i18n.changeLanguage('en');
    expect(describeError(projectHasDevices)).toBe(
      'This project still holds devices (2): move them to another project first',
    );
  });

  it('has a translation for every reason the server can give', async () => {
    for (const lang of ['zh', 'es', 'ja', 'en']) {
      await i18n.changeLanguage(lang);
      for (const reason of Object.keys(REFUSALS)) {
        const text = describeError(new ApiError(ErrorCode.CONFLICT, 'server text', { reason, params: {} }));
        expect(text, `${lang}: ${reason}`).not.toBe('server text');
      }
    }
  });

  it('falls back to the per-code text, then to the server message, for reasons it does not know', async () => {
    await i18n.changeLanguage('es');
    const unknownField = new ApiError(ErrorCode.VALIDATION, 'email: bad', { field: 'email', reason: 'fromTheFuture' });
    expect(describeError(unknownField)).toBe('Valor no válido en Correo electrónico; revíselo e inténtelo de nuevo');
    const unknownConflict = new ApiError(ErrorCode.CONFLICT, 'Something new went wrong', { reason: 'fromTheFuture' });
    expect(describeError(unknownConflict)).toBe('Something new went wrong');
  });
});
