import type { BrandSummary, RequestStatus } from '@/features/requests/api/requests';
import { api } from '@/lib/api';

export type QuickAction = 'accept' | 'decline';

export interface QuickActionResult {
  readonly result: string;
  readonly message?: string | null;
  readonly request: {
    readonly fromBrand: Pick<BrandSummary, 'name'> & Partial<BrandSummary>;
    readonly toBrand: Pick<BrandSummary, 'name'> & Partial<BrandSummary>;
    readonly status: RequestStatus;
  };
}

export function isQuickAction(value: string | undefined): value is QuickAction {
  return value === 'accept' || value === 'decline';
}

/** The emailed accept/decline link: public, single-use; no session is needed or sent. */
export function runQuickAction(
  action: QuickAction,
  actioner: string,
  actionee: string,
  unique: string,
): Promise<QuickActionResult> {
  const path = [action, actioner, actionee, unique].map(encodeURIComponent).join('/');
  return api.post<QuickActionResult>(`quick-action/${path}`, undefined, { auth: false });
}
