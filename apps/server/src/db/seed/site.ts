import type { SiteConfig } from '@iot/contract';

/** Defaults of the site configuration (§1); operators change them with `npm run site:config`. */
export const SITE_DEFAULTS: SiteConfig = {
  title: '物联网设备管理平台',
  titleEn: 'IoT Device Management Console',
  titleEs: 'Consola de gestión de dispositivos IoT',
  titleJa: 'IoTデバイス管理コンソール',
  company: '物联网控制台开源项目',
  companyEn: 'IoT Console open-source project',
  companyEs: 'Proyecto de código abierto IoT Console',
  companyJa: 'IoT Console オープンソースプロジェクト',
  copyright: '© 2026 物联网控制台 保留所有权利',
  copyrightEn: '© 2026 IoT Console. All rights reserved.',
  copyrightEs: '© 2026 IoT Console. Todos los derechos reservados.',
  copyrightJa: '© 2026 IoT Console. All rights reserved.',
  address: '',
  addressEn: '',
  addressEs: '',
  addressJa: '',
  logo: '/logo.svg',
  contactTel: '',
  email: '',
  particleLogo: '#409EFF',
  particleBackground: '#0B1A2F',
  particleButton: '#409EFF',
  particleFooter: '#8FA3BF',
};
