/** Query keys of the admin feature (the selected brand is part of every key, as everywhere). */
export const adminKeys = {
  users: (brand: string) => ['admin', brand, 'users'] as const,
};
