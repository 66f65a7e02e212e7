import { useState, type ReactNode } from 'react';
import { Form, Modal, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, describeError, reportError } from '../lib/http';

interface Props<T> {
  open: boolean;
  title: ReactNode;
  /** Values the form starts with each time it opens. */
  initialValues?: Partial<T>;
  onCancel: () => void;
  /** Saves the values; a rejection keeps the modal open (the http client already said why). */
  onSubmit: (values: T) => Promise<unknown>;
  children: ReactNode | ((form: FormInstance<T>) => ReactNode);
  width?: number;
  testId?: string;
}

/**
 * A create/edit form in a modal: validates, saves, and closes on success. The form is rebuilt on
 * every opening so it always starts from `initialValues`. The OK button is `modal-ok`.
 */
export function FormModal<T extends object>({
  open,
  title,
  initialValues,
  onCancel,
  onSubmit,
  children,
  width = 560,
  testId = 'form-modal',
}: Props<T>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<T>();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    let values: T;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is missing
    }
    setSaving(true);
    try {
      await onSubmit(values);
    } catch (err) {
      // Already reported; a refusal naming one of the form's fields is also shown beside it.
      // A silent call's refusal that names none of the form's fields is shown here instead.
      const field = err instanceof ApiError ? (err.data as { field?: unknown } | null)?.field : undefined;
      if (err instanceof ApiError && typeof field === 'string' && field in (form.getFieldsValue(true) as object)) {
        form.setFields([{ name: field as never, errors: [describeError(err)] }]);
      } else if (err instanceof ApiError && !err.reported) {
        reportError(err);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      okText={t('common:confirm')}
      cancelText={t('common:cancel')}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onCancel}
      destroyOnHidden
      mask={{ closable: false }}
      data-testid={testId}
      okButtonProps={{ 'data-testid': 'modal-ok' } as Record<string, string>}
      cancelButtonProps={{ 'data-testid': 'modal-cancel' } as Record<string, string>}
    >
      <Form<T>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        preserve={false}
        clearOnDestroy
        onFinish={() => void submit()}
      >
        {typeof children === 'function' ? children(form) : children}
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </Form>
    </Modal>
  );
}
