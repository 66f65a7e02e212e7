import { Form, Input, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { EXTERNAL_IDENTIFIER_PATTERN, EXTERNAL_LIMITS } from '@iot/contract/plain';
import type { ExternalAdded } from '@iot/contract';
import { FormModal } from '../../../components/FormModal';
import { feedbackMessage } from '../../../lib/feedback';
import { useAddExternal } from './api';

interface Values {
  mode: 'one' | 'bulk';
  identifier?: string;
  name?: string;
  model?: string;
  list?: string;
}

/** A pasted list: one device a line, `identifier[,name[,model]]` (commas or tabs); blank lines skipped. */
export function parseList(text: string): { identifier: string; name: string; model: string }[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [identifier = '', name = '', model = ''] = line.split(/[,\t]/).map((p) => p.trim());
      return { identifier, name, model };
    });
}

/**
 * Registers external devices: one with its name and model, or a pasted list of up to 1,000
 * (a model typed beside the list applies to the lines that name none). Their credentials are
 * handed to `onAdded`, to be shown once.
 */
export function AddDevicesModal({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: (items: ExternalAdded['items']) => void }) {
  const { t } = useTranslation();
  const add = useAddExternal();

  const submit = async (v: Values) => {
    const devices =
      v.mode === 'one'
        ? [{ identifier: v.identifier ?? '', name: v.name ?? '', model: v.model ?? '' }]
        : parseList(v.list ?? '').map((d) => ({ ...d, model: d.model || (v.model ?? '') }));
    const added = await add.mutateAsync({ devices });
    feedbackMessage().success(t('external:added', { count: added.items.length }));
    onClose();
    onAdded(added.items);
  };

  const checkList = async (_: unknown, text: string | undefined) => {
    const devices = parseList(text ?? '');
    if (devices.length === 0) throw new Error(t('external:bulk.empty'));
    if (devices.length > EXTERNAL_LIMITS.bulkMax) throw new Error(t('external:bulk.tooMany', { max: EXTERNAL_LIMITS.bulkMax }));
    const bad = devices.filter((d) => !EXTERNAL_IDENTIFIER_PATTERN.test(d.identifier) || d.identifier.length > EXTERNAL_LIMITS.identifierMax);
    if (bad.length > 0) throw new Error(t('external:bulk.badLines', { list: bad.slice(0, 5).map((d) => d.identifier || '""').join(', ') }));
  };

  return (
    <FormModal<Values> open={open} title={t('external:addTitle')} initialValues={{ mode: 'one' }} onCancel={onClose} onSubmit={submit} testId="external-add-modal">
      {() => (
        <>
          <Form.Item name="mode" label={t('external:addMode')}>
            <Segmented
              options={[
                { value: 'one', label: t('external:addOne') },
                { value: 'bulk', label: t('external:addBulk') },
              ]}
              data-testid="external-add-mode"
            />
          </Form.Item>
          <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a.mode !== b.mode}>
            {({ getFieldValue }) =>
              getFieldValue('mode') === 'bulk' ? (
                <Form.Item name="list" label={t('external:bulk.label')} extra={t('external:bulk.hint', { max: EXTERNAL_LIMITS.bulkMax })} rules={[{ validator: checkList }]}>
                  <Input.TextArea rows={8} placeholder={t('external:bulk.placeholder')} data-testid="external-bulk" />
                </Form.Item>
              ) : (
                <>
                  <Form.Item
                    name="identifier"
                    label={t('external:fields.identifier')}
                    rules={[
                      { required: true, whitespace: true, message: t('external:identifierRequired') },
                      { pattern: EXTERNAL_IDENTIFIER_PATTERN, message: t('external:identifierPattern') },
                    ]}
                  >
                    <Input maxLength={EXTERNAL_LIMITS.identifierMax} data-testid="external-identifier" />
                  </Form.Item>
                  <Form.Item name="name" label={t('external:fields.name')}>
                    <Input maxLength={EXTERNAL_LIMITS.nameMax} data-testid="external-name" />
                  </Form.Item>
                </>
              )
            }
          </Form.Item>
          <Form.Item name="model" label={t('external:fields.model')}>
            <Input maxLength={EXTERNAL_LIMITS.modelMax} data-testid="external-model" />
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}
