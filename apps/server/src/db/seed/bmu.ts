import type { AlarmRuleInput, ParamInput } from '@iot/contract';

/**
 * The built-in "battery management unit" type: what a BMU reports (§1: many devices are BMUs).
 * Semaphore ids are the field's 8-digit ids (/work/shared/reference/field-conventions.md,
 * docs/PROTOCOL.md): 01111001 pack voltage, 01117001… cell voltages indexed by the last three
 * digits, 02109001 SOC and so on. Signals the field's list does not name (the charge state, the
 * highest and lowest cell, the two switches) keep the type's own ids (10000006, 10000013/14,
 * 10000030/31).
 */
export const BMU_TYPE = {
  code: 'BMU',
  name: '电池管理单元',
  nameEn: 'Battery management unit',
  nameEs: 'Unidad de gestión de baterías',
  nameJa: 'バッテリー管理ユニット',
  // Empty: the console describes built-in types in the UI language (migration 0007).
  remarks: '',
  recordTrack: true,
};

type P = Omit<ParamInput, 'sort'>;
const num = (semaphoreId: string, name: string, nameEn: string, nameEs: string, nameJa: string, unit: string, groupName: string, precision: number, min: number | null, max: number | null): P => ({
  semaphoreId, name, nameEn, nameEs, nameJa, unit, groupName, dataType: 'number', precision, min, max,
});

const cells: P[] = Array.from({ length: 16 }, (_, i) =>
  num(`01117${String(i + 1).padStart(3, '0')}`, `单体电压${i + 1}`, `Cell ${i + 1} voltage`, `Tensión celda ${i + 1}`, `セル${i + 1}電圧`, 'V', 'cells', 3, 0, 5),
);
const cellTemps: P[] = Array.from({ length: 4 }, (_, i) =>
  num(`01119${String(i + 1).padStart(3, '0')}`, `电芯温度${i + 1}`, `Cell temperature ${i + 1}`, `Temperatura celda ${i + 1}`, `セル温度${i + 1}`, '°C', 'temperature', 1, -40, 125),
);

export const BMU_PARAMS: ParamInput[] = ([
  num('01111001', '总电压', 'Pack voltage', 'Tensión del paquete', '総電圧', 'V', 'pack', 2, 0, 1000),
  num('01112001', '电流', 'Current', 'Corriente', '電流', 'A', 'pack', 2, -1000, 1000),
  num('02109001', '剩余电量', 'State of charge', 'Estado de carga', '充電率', '%', 'pack', 1, 0, 100),
  num('02110001', '健康度', 'State of health', 'Estado de salud', '健全度', '%', 'pack', 1, 0, 100),
  { semaphoreId: '01116001', name: '电芯数量', nameEn: 'Cell count', nameEs: 'Número de celdas', nameJa: 'セル数', unit: '', groupName: 'pack', dataType: 'integer', min: 0, max: 512 },
  {
    semaphoreId: '10000006', name: '状态', nameEn: 'State', nameEs: 'Estado', nameJa: '状態', unit: '', groupName: 'pack', dataType: 'enum',
    enumValues: [
      { value: '0', label: '静置', labelEn: 'Idle', labelEs: 'En reposo', labelJa: '待機' },
      { value: '1', label: '充电', labelEn: 'Charging', labelEs: 'Cargando', labelJa: '充電中' },
      { value: '2', label: '放电', labelEn: 'Discharging', labelEs: 'Descargando', labelJa: '放電中' },
      { value: '3', label: '故障', labelEn: 'Fault', labelEs: 'Avería', labelJa: '故障' },
    ],
  },
  {
    semaphoreId: '01121001', name: '电池状态', nameEn: 'Battery state', nameEs: 'Estado de la batería', nameJa: 'バッテリー状態', unit: '', groupName: 'pack', dataType: 'enum',
    enumValues: [
      { value: '0', label: '运动', labelEn: 'Moving', labelEs: 'En movimiento', labelJa: '移動中' },
      { value: '1', label: '静止', labelEn: 'Static', labelEs: 'Estático', labelJa: '静止' },
      { value: '2', label: '存储', labelEn: 'Storage', labelEs: 'Almacenamiento', labelJa: '保管' },
      { value: '3', label: '休眠', labelEn: 'Sleep', labelEs: 'Suspensión', labelJa: 'スリープ' },
    ],
  },
  num('10000013', '最高单体电压', 'Max cell voltage', 'Tensión máx. de celda', '最高セル電圧', 'V', 'cells', 3, 0, 5),
  num('10000014', '最低单体电压', 'Min cell voltage', 'Tensión mín. de celda', '最低セル電圧', 'V', 'cells', 3, 0, 5),
  ...cells,
  ...cellTemps,
  num('01118001', '板卡温度', 'Board temperature', 'Temperatura de placa', '基板温度', '°C', 'temperature', 1, -40, 125),
  num('01120001', '环境温度', 'Ambient temperature', 'Temperatura ambiente', '周囲温度', '°C', 'temperature', 1, -40, 85),
  { semaphoreId: '02105001', name: '信号强度', nameEn: 'Signal strength', nameEs: 'Intensidad de señal', nameJa: '信号強度', unit: 'dBm', groupName: 'communication', dataType: 'integer', min: -130, max: 0 },
  num('02111001', '经度', 'Longitude', 'Longitud', '経度', '°', 'location', 6, -180, 180),
  num('02112001', '纬度', 'Latitude', 'Latitud', '緯度', '°', 'location', 6, -90, 90),
  num('02117001', '累计充电量', 'Total charge', 'Carga acumulada', '累積充電量', 'Ah', 'energy', 1, 0, null),
  num('02116001', '累计放电量', 'Total discharge', 'Descarga acumulada', '累積放電量', 'Ah', 'energy', 1, 0, null),
  num('02120001', '累计用电量', 'Energy used', 'Energía consumida', '累積使用電力量', 'kWh', 'energy', 2, 0, null),
  { semaphoreId: '10000030', name: '充电开关', nameEn: 'Charge switch', nameEs: 'Interruptor de carga', nameJa: '充電スイッチ', unit: '', groupName: 'control', dataType: 'boolean', writable: true },
  { semaphoreId: '10000031', name: '放电开关', nameEn: 'Discharge switch', nameEs: 'Interruptor de descarga', nameJa: '放電スイッチ', unit: '', groupName: 'control', dataType: 'boolean', writable: true },
] satisfies P[]).map((p, i) => ({ ...p, sort: i + 1 }));

/**
 * The built-in rules, levelled as a battery operator expects on the one severity scale (4 the most
 * severe, decision 0023): a battery fault and a cell over-voltage stop the pack (4), a cell out of
 * its temperature range or under-voltage need attention now (3), a low charge soon (2), a weak
 * signal is a notice (1). Migration 0041 re-levels installs seeded before.
 */
export const BMU_ALARMS: AlarmRuleInput[] = [
  { semaphoreId: '02109001', comparison: 'lt', threshold: 10, level: 2, message: '电量过低', messageEn: 'Low state of charge', messageEs: 'Carga baja', messageJa: '充電率低下', holdSeconds: 60 },
  { semaphoreId: '10000014', comparison: 'lt', threshold: 2.8, level: 3, message: '单体欠压', messageEn: 'Cell under-voltage', messageEs: 'Subtensión de celda', messageJa: 'セル低電圧', holdSeconds: 10 },
  { semaphoreId: '10000013', comparison: 'gt', threshold: 3.65, level: 4, message: '单体过压', messageEn: 'Cell over-voltage', messageEs: 'Sobretensión de celda', messageJa: 'セル過電圧', holdSeconds: 10 },
  { semaphoreId: '01119001', comparison: 'outside', threshold: -20, threshold2: 55, level: 3, message: '电芯温度异常', messageEn: 'Cell temperature out of range', messageEs: 'Temperatura de celda fuera de rango', messageJa: 'セル温度異常', holdSeconds: 30 },
  { semaphoreId: '10000006', comparison: 'eq', threshold: '3', level: 4, message: '电池故障', messageEn: 'Battery fault', messageEs: 'Avería de batería', messageJa: 'バッテリー故障' },
  { semaphoreId: '02105001', comparison: 'lt', threshold: -110, level: 1, message: '信号弱', messageEn: 'Weak signal', messageEs: 'Señal débil', messageJa: '電波微弱', holdSeconds: 300 },
];

/**
 * The built-in type's ids before they followed the field's conventions (releases before 2026-11-23):
 * old id → new id. An install whose built-in type still has exactly these ids (the administrator
 * never changed its parameters) is moved to the new ids at start-up (seed).
 */
export const LEGACY_BMU_IDS: Readonly<Record<string, string>> = {
  '10000001': '01111001', '10000002': '01112001', '10000003': '02109001', '10000004': '02110001',
  '10000005': '01116001', '10000007': '02105001', '10000008': '02111001', '10000009': '02112001',
  '10000010': '02117001', '10000011': '02116001', '10000012': '02120001', '10000210': '01118001',
  '10000211': '01120001',
  ...Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`100001${String(i + 1).padStart(2, '0')}`, `01117${String(i + 1).padStart(3, '0')}`])),
  ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`100002${String(i + 1).padStart(2, '0')}`, `01119${String(i + 1).padStart(3, '0')}`])),
};
