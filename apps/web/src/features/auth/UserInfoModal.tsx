import { Descriptions, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@iot/contract';
import { SiteContactList } from '../../components/SiteContactList';

interface Props {
  open: boolean;
  user: UserInfo | null;
  onClose: () => void;
}

/** §2: company accounts (type 1) see their own company details from the user dropdown. */
export function UserInfoModal({ open, user, onClose }: Props) {
  const { t } = useTranslation();
  const empty = t('common:empty');
  return (
    <Modal
      open={open}
      title={t('auth:userInfo.title')}
      onCancel={onClose}
      footer={null}
      data-testid="user-info-modal"
    >
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('fields:username')}>{user?.name || empty}</Descriptions.Item>
        <Descriptions.Item label={t('fields:corporateName')}>
          {user?.corporateName || empty}
        </Descriptions.Item>
        <Descriptions.Item label={t('fields:corporateAddress')}>
          {user?.corporateAddress || empty}
        </Descriptions.Item>
        <Descriptions.Item label={t('fields:contactNumber')}>
          {user?.contactNumber || empty}
        </Descriptions.Item>
      </Descriptions>
      <SiteContactList />
    </Modal>
  );
}
