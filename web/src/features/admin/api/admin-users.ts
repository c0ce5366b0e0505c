import { api } from '@/lib/api';
import { createResource, useResource, type ResourceState } from '@/lib/resource';

export interface AdminUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly access: string;
}

export interface AdminUsersResponse {
  readonly users: readonly AdminUser[];
}

export const adminUsersResource = createResource<AdminUsersResponse>(() =>
  api.get<AdminUsersResponse>('admin/users'),
);

/** The admin user list (admins only; pass enabled=false for everyone else). */
export function useAdminUsers(enabled: boolean): ResourceState<AdminUsersResponse> {
  return useResource(adminUsersResource, enabled ? 'all' : null);
}
