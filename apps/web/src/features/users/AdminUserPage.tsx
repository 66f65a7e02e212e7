import { UserListPage } from './UserListPage';

/** §2 /sys/adminuser: platform administrators (type 0), admin:* codes. */
export default function AdminUserPage() {
  return <UserListPage kind="admin" />;
}
