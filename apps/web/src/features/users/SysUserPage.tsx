import { UserListPage } from './UserListPage';

/** §2 /sys/user: company accounts (type 1), user:* codes. */
export default function SysUserPage() {
  return <UserListPage kind="user" />;
}
