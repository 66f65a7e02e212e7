import { useState } from 'react';
import { Button, Card, Col, Descriptions, Form, Row, Select, Switch, Tag } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ALARM_LEVELS, DASHBOARD_STYLES, LANGUAGES, userRoutes } from '@iot/contract/plain';
import type { AlarmLevel, DashboardStyle, Language } from '@iot/contract';
import { AlarmLevelLegend, alarmLevelLabel } from '../../components/AlarmLevel';
import { changeLanguage } from '../../lib/language';
import { patchUser, useSession } from '../../lib/session';
import { EmailManager } from '../../components/EmailManager';
import { ChangePasswordDialog } from '../../components/ChangePasswordDialog';
import { roleLabel } from '../../lib/acl-labels';
import { feedbackMessage } from '../../lib/feedback';
import { api } from '../../lib/api';
import { CompanyDetailsForm } from './CompanyDetailsForm';

/** The signed-in user's own page: details, company details, preferences, emails and password. */
export default function ProfilePage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [saving, setSaving] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  if (!user) return null;

  const save = async (prefs: {
    dashboardStyle?: DashboardStyle;
    alarmMail?: boolean;
    alarmPopupLevel?: AlarmLevel;
    alarmMailLevel?: AlarmLevel;
    alarmSmsLevel?: AlarmLevel | null;
    alarmCallLevel?: AlarmLevel | null;
  }) => {
    setSaving(true);
    try {
      await api(userRoutes.preferences, { body: prefs });
      patchUser(prefs);
      feedbackMessage().success(t('profile:saved'));
    } catch {
      // reported by the http client
    } finally {
      setSaving(false);
    }
  };

  // "From 3 · Major up": the lowest level that reaches the user, most severe first.
  const levelOptions = [...ALARM_LEVELS].reverse().map((level) => ({
    value: level,
    label: t(level === 4 ? 'profile:alarmLevelOnly' : 'profile:alarmLevelUp', { level: alarmLevelLabel(t, level) }),
  }));

  // SMS and calls are off until the user picks a level ("off" is stored as null).
  const phoneOptions = [{ value: 0, label: t('profile:alarmPhoneOff') }, ...levelOptions];
  const phoneHint = user.contactNumber ? t('profile:alarmPhoneHint', { phone: user.contactNumber }) : t('profile:alarmPhoneNoNumber');

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }} data-testid="profile">
      <Card title={t('profile:details')}>
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
          <Descriptions.Item label={t('fields:username')}>{user.name}</Descriptions.Item>
          <Descriptions.Item label={t('fields:roleName')}>
            {roleLabel(user.roles[0] ?? '', user.roleName)}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields:userType')}>
            <Tag color={user.type === 0 ? 'geekblue' : 'cyan'}>{t(`profile:userTypes.${user.type}`)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('profile:permissionCount')}>{user.permissions.length}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('profile:company')} style={{ height: '100%' }}>
            <CompanyDetailsForm user={user} />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('profile:preferences')} style={{ height: '100%' }}>
            <Form layout="vertical" style={{ maxWidth: 360 }}>
              <Form.Item label={t('fields:language')} htmlFor="profile-language">
                <Select<Language>
                  id="profile-language"
                  value={i18n.language as Language}
                  onChange={(lang) => void changeLanguage(lang)}
                  options={LANGUAGES.map((lang) => ({ value: lang, label: t(`profile:languages.${lang}`) }))}
                  data-testid="profile-language"
                />
              </Form.Item>
              <Form.Item label={t('fields:dashboardStyle')} extra={t('profile:dashboardStyleHint')} htmlFor="profile-dashboard-style">
                <Select<DashboardStyle>
                  id="profile-dashboard-style"
                  value={user.dashboardStyle}
                  loading={saving}
                  onChange={(style) => void save({ dashboardStyle: style })}
                  options={DASHBOARD_STYLES.map((style) => ({
                    value: style,
                    label: t(`profile:dashboardStyles.${style}`),
                  }))}
                  data-testid="profile-dashboard-style"
                />
              </Form.Item>
              <Form.Item label={t('profile:alarmMail')} extra={t('profile:alarmMailHint')} htmlFor="profile-alarm-mail">
                <Switch
                  id="profile-alarm-mail"
                  checked={user.alarmMail}
                  loading={saving}
                  onChange={(alarmMail) => void save({ alarmMail })}
                  data-testid="profile-alarm-mail"
                />
              </Form.Item>
              <Form.Item
                label={
                  <span>
                    {t('profile:alarmPopupLevel')} <AlarmLevelLegend />
                  </span>
                }
                extra={t('profile:alarmPopupLevelHint')}
                htmlFor="profile-alarm-popup-level"
              >
                <Select<AlarmLevel>
                  id="profile-alarm-popup-level"
                  value={user.alarmPopupLevel}
                  loading={saving}
                  onChange={(alarmPopupLevel) => void save({ alarmPopupLevel })}
                  options={levelOptions}
                  data-testid="profile-alarm-popup-level"
                />
              </Form.Item>
              <Form.Item label={t('profile:alarmMailLevel')} extra={t('profile:alarmMailLevelHint')} htmlFor="profile-alarm-mail-level">
                <Select<AlarmLevel>
                  id="profile-alarm-mail-level"
                  value={user.alarmMailLevel}
                  loading={saving}
                  onChange={(alarmMailLevel) => void save({ alarmMailLevel })}
                  options={levelOptions}
                  data-testid="profile-alarm-mail-level"
                />
              </Form.Item>
              {(['alarmSmsLevel', 'alarmCallLevel'] as const).map((key) => (
                <Form.Item key={key} label={t(`profile:${key}`)} extra={phoneHint} htmlFor={`profile-${key}`}>
                  <Select<number>
                    id={`profile-${key}`}
                    value={user[key] ?? 0}
                    loading={saving}
                    onChange={(v) => void save({ [key]: v === 0 ? null : (v as AlarmLevel) })}
                    options={phoneOptions}
                    data-testid={`profile-${key}`}
                  />
                </Form.Item>
              ))}
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('profile:emails')} style={{ height: '100%' }}>
            <EmailManager userId={user.id} canEdit />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('profile:security')} style={{ height: '100%' }}>
            <p>{t('profile:passwordHint')}</p>
            <Button icon={<LockOutlined />} onClick={() => setPasswordOpen(true)} data-testid="profile-change-password">
              {t('profile:changePassword')}
            </Button>
          </Card>
        </Col>
      </Row>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </div>
  );
}
