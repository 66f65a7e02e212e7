/**
 * Columns of the device spreadsheet (template and import), in order; headers are accepted in any
 * of the 4 languages. A column the import does not know is ignored: sheets made before the warning
 * level became read-only still import, their warning level column left out.
 */
export const DEVICE_SHEET_COLUMNS = [
  { key: 'name', required: true, zh: '设备名称', en: 'Device name', es: 'Nombre del dispositivo', ja: 'デバイス名' },
  { key: 'sn', required: true, zh: '设备编码', en: 'Device code (SN)', es: 'Código del dispositivo (SN)', ja: 'デバイスコード (SN)' },
  { key: 'type', required: true, zh: '设备类型编码', en: 'Type code', es: 'Código de tipo', ja: 'タイプコード' },
  { key: 'project', required: false, zh: '项目名称', en: 'Project', es: 'Proyecto', ja: 'プロジェクト' },
  { key: 'address', required: false, zh: '地址', en: 'Address', es: 'Dirección', ja: '住所' },
  { key: 'lng', required: false, zh: '经度', en: 'Longitude', es: 'Longitud', ja: '経度' },
  { key: 'lat', required: false, zh: '纬度', en: 'Latitude', es: 'Latitud', ja: '緯度' },
  { key: 'alarmPhone', required: false, zh: '告警电话', en: 'Alarm phone', es: 'Teléfono de alarma', ja: 'アラーム電話' },
  { key: 'btCode', required: false, zh: '蓝牙编码', en: 'BT code', es: 'Código BT', ja: 'BTコード' },
  { key: 'version4g', required: false, zh: '4G版本', en: '4G version', es: 'Versión 4G', ja: '4Gバージョン' },
  { key: 'hardwareVersion', required: false, zh: '硬件版本', en: 'Hardware version', es: 'Versión de hardware', ja: 'ハードウェアバージョン' },
  { key: 'simNumber', required: false, zh: 'SIM卡号', en: 'SIM number', es: 'Número SIM', ja: 'SIM番号' },
  { key: 'imei', required: false, zh: '模块号(IMEI)', en: 'Module (IMEI)', es: 'Módulo (IMEI)', ja: 'モジュール (IMEI)' },
  { key: 'manufacturerModel', required: false, zh: '厂家型号', en: 'Manufacturer model', es: 'Modelo del fabricante', ja: 'メーカー型番' },
  { key: 'remarks', required: false, zh: '备注', en: 'Remarks', es: 'Observaciones', ja: '備考' },
  { key: 'description', required: false, zh: '描述', en: 'Description', es: 'Descripción', ja: '説明' },
] as const;
export type DeviceSheetKey = (typeof DEVICE_SHEET_COLUMNS)[number]['key'];
/** The export's columns: the sheet's, then the warning level (computed from the alarms, not imported). */
export const DEVICE_EXPORT_COLUMNS = [
  ...DEVICE_SHEET_COLUMNS,
  { key: 'warningLevel', required: false, zh: '告警等级', en: 'Warning level', es: 'Nivel de aviso', ja: '警告レベル' },
] as const;
export type DeviceExportKey = (typeof DEVICE_EXPORT_COLUMNS)[number]['key'];
