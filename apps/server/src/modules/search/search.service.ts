import { SEARCH_GROUP_LIMIT, type SearchResult } from '@iot/contract';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { PermissionService } from '../permission/permission.service.js';
import type { ProjectService } from '../project/project.service.js';
import type { UserAdminService } from '../user/admin.service.js';

/**
 * The navbar search (issue 33): a few devices, projects and users matching a text, each group
 * through its own list's visibility and only for the holders of that list's code. The three
 * queries are independent and index-backed, so they run side by side.
 */
export class SearchService {
  constructor(
    private readonly permissions: PermissionService,
    private readonly devices: DeviceService,
    private readonly projects: ProjectService,
    private readonly users: UserAdminService,
  ) {}

  async find(ctx: AuthContext, q: string): Promise<SearchResult> {
    const [seesDevices, seesProjects] = await Promise.all([
      this.permissions.has(ctx, 'device:list'),
      this.permissions.has(ctx, 'project:list'),
    ]);
    const [devices, projects, users] = await Promise.all([
      seesDevices ? this.devices.findByText(ctx, q, SEARCH_GROUP_LIMIT) : null,
      seesProjects ? this.projects.findByName(ctx, q, SEARCH_GROUP_LIMIT) : null,
      this.users.findByName(ctx, q, SEARCH_GROUP_LIMIT),
    ]);
    return { devices, projects, users };
  }
}
