/** Query keys of the admin feature (the selected brand is part of every key, as everywhere). */
export const adminKeys = {
  all: ['admin'] as const,
  users: (brand: string) => ['admin', brand, 'users'] as const,
  members: (brand: string, q: string) => ['admin', brand, 'members', q] as const,
  approvals: (brand: string) => ['admin', brand, 'approvals'] as const,
  refund: (brand: string, accountId: string) => ['admin', brand, 'refund', accountId] as const,
  issues: (brand: string) => ['admin', brand, 'issues'] as const,
  settings: (brand: string) => ['admin', brand, 'settings'] as const,
  audit: (brand: string) => ['admin', brand, 'audit'] as const,
  collaborations: (brand: string) => ['admin', brand, 'collaborations'] as const,
  reports: (brand: string, status: string) => ['admin', brand, 'reports', status] as const,
  reportedBrand: (brand: string, brandId: number) => ['admin', brand, 'reported-brand', brandId] as const,
};
