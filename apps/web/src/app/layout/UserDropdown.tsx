import { lazy, Suspense, useState } from 'react';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { IconButton } from '../../components/IconButton';
import { HOME_PATH } from '../route-table';
import { logout, useSession } from '../../lib/session';

// The dialogs (a form, inputs, descriptions) are fetched when first opened, not with the frame.
const ChangePasswordDialog = lazy(() => import('../../components/ChangePasswordDialog').then((m) => ({ default: m.ChangePasswordDialog })));
const UserInfoModal = lazy(() => import('../../features/auth/UserInfoModal').then((m) => ({ default: m.UserInfoModal })));

/** §2 user dropdown: dashboard, profile, company info (type 1), change password, log out. */
export function UserDropdown({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { user } = useSession();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [infoOpen, setInfoOpen] = useState(false);
  // Mounted from the first opening on, so that closing still animates.
  const [passwordUsed, setPasswordUsed] = useState(false);
  const [infoUsed, setInfoUsed] = useState(false);

  const item = (key: string, testId: string, text: string) => ({
    key,
    label: <span data-testid={testId}>{text}</span>,
  });
  const items: MenuProps['items'] = [
    item('dashboard', 'menu-dashboard', t('navbar:dashboard')),
    item('profile', 'menu-profile', t('navbar:profile')),
    ...(user?.type === 1 ? [item('info', 'menu-user-info', t('navbar:userInfo'))] : []),
    item('password', 'menu-change-password', t('navbar:changePassword')),
    { type: 'divider' as const },
    item('logout', 'menu-logout', t('navbar:logout')),
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'dashboard') void navigate(HOME_PATH);
    else if (key === 'profile') void navigate('/profile');
    else if (key === 'info') {
      setInfoUsed(true);
      setInfoOpen(true);
    } else if (key === 'password') {
      setPasswordUsed(true);
      setPasswordOpen(true);
    }
    else if (key === 'logout') {
      const back = location.pathname + location.search;
      void logout().then(() => navigate(`/login?redirect=${encodeURIComponent(back)}`, { replace: true }));
    }
  };

  return (
    <>
      <Dropdown trigger={['click']} menu={{ items, onClick }} placement="bottomRight">
        <IconButton
          label={t('navbar:userMenu', { name: user?.name ?? '' })}
          aria-haspopup="menu"
          data-testid="user-menu"
          style={{ gap: 8, fontSize: 14 }}
        >
          <Avatar size={30} src={user?.avatar || undefined} icon={<UserOutlined />} alt="" />
          {!compact && <span style={{ maxWidth: 120, overflow: 'hidden', textOverflow: 'ellipsis' }}>{user?.name}</span>}
          <DownOutlined style={{ fontSize: 10 }} />
        </IconButton>
      </Dropdown>
      <Suspense fallback={null}>
        {passwordUsed && <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />}
        {infoUsed && <UserInfoModal open={infoOpen} user={user} onClose={() => setInfoOpen(false)} />}
      </Suspense>
    </>
  );
}
