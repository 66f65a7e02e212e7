import { UserListPage } from './UserListPage';

/** §2 /user/agent: the signed-in user's own sub-users, agent:* codes. */
export default function AgentUserPage() {
  return <UserListPage kind="agent" />;
}
