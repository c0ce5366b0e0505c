/** The two answers a quick-action link gives. */
export type QuickAction = 'accept' | 'decline';

/** Query keys of the quick-action page: the link checked, for the selected brand (as every key). */
export const quickActionKeys = {
  preview: (brand: string, action: QuickAction, actioner: string, actionee: string, unique: string) =>
    ['quick-action', brand, action, actioner, actionee, unique] as const,
};
