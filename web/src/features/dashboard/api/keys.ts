/** Query keys of the dashboard feature: one dashboard per selected brand. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  forBrand: (brand: string) => ['dashboard', brand] as const,
};
