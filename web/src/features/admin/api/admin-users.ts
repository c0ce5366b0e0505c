import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { useSelectedBrand, useSession } from '@/lib/session';
import { adminKeys } from './keys';

export interface AdminUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly access: string;
}

export interface AdminUsersResponse {
  readonly users: readonly AdminUser[];
}

/** The admin user list (admins only; pass enabled=false for everyone else). */
export function useAdminUsers(enabled: boolean): UseQueryResult<AdminUsersResponse> {
  const signedIn = useSession() !== null;
  const brand = useSelectedBrand();
  return useQuery({
    queryKey: adminKeys.users(brand),
    queryFn: () => api.get<AdminUsersResponse>('admin/users'),
    enabled: enabled && signedIn,
  });
}
