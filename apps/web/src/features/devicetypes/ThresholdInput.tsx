import { Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALARM_LIMITS } from '@iot/contract/plain';
import type { ParamDto } from '@iot/contract';
import { currentLanguage } from '../../lib/i18n';
import { enumLabel } from '../../lib/localize';

interface Props {
  param: ParamDto | undefined;
  value?: number | string | null;
  onChange?: (value: number | string | null) => void;
  disabled?: boolean;
  id?: string;
  /** Its accessible name (the column and row of the alarm table). */
  label?: string;
  testId?: string;
}

/**
 * The threshold control for a parameter's data type: a number for number/integer, the enum's
 * values, true/false for boolean and free text for text.
 */
export function ThresholdInput({ param, value, onChange, disabled, id, label, testId = 'field-threshold' }: Props) {
  const { t } = useTranslation();
  const common = { id, disabled, 'aria-label': label, 'data-testid': testId, style: { width: 136 } };
  if (!param) {
    return <Input {...common} disabled placeholder={t('devicetypes:alarms.pickParamFirst')} />;
  }
  switch (param.dataType) {
    case 'number':
    case 'integer':
      return (
        <InputNumber<number>
          {...common}
          value={typeof value === 'number' ? value : null}
          onChange={(v) => onChange?.(v ?? null)}
          precision={param.dataType === 'integer' ? 0 : undefined}
          step={param.dataType === 'integer' ? 1 : 10 ** -Math.min(param.precision, 6)}
          suffix={param.unit || undefined}
        />
      );
    case 'boolean':
      return (
        <Select
          {...common}
          value={value === null || value === undefined ? undefined : String(value)}
          onChange={(v: string) => onChange?.(v)}
          options={[
            { value: 'true', label: t('devicetypes:alarms.true') },
            { value: 'false', label: t('devicetypes:alarms.false') },
          ]}
        />
      );
    case 'enum': {
      const lang = currentLanguage();
      return (
        <Select
          {...common}
          value={value === null || value === undefined ? undefined : String(value)}
          onChange={(v: string) => onChange?.(v)}
          options={param.enumValues.map((e) => ({ value: e.value, label: `${e.value} · ${enumLabel(e, lang)}` }))}
          popupMatchSelectWidth={false}
        />
      );
    }
    default:
      return (
        <Input
          {...common}
          maxLength={ALARM_LIMITS.threshold}
          value={value === null || value === undefined ? '' : String(value)}
          onChange={(e) => onChange?.(e.target.value)}
        />
      );
  }
}
