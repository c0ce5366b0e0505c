import { queryOptions } from '@tanstack/react-query';
import type { BrandSummary, RequestStatus } from '@/features/requests';
import { api } from '@/lib/api';
import { quickActionKeys, type QuickAction } from './keys';

export type { QuickAction } from './keys';

export interface QuickActionResult {
  readonly result: string;
  readonly message?: string | null;
  readonly request: {
    readonly fromBrand: Pick<BrandSummary, 'name'> & Partial<BrandSummary>;
    readonly toBrand: Pick<BrandSummary, 'name'> & Partial<BrandSummary>;
    readonly status: RequestStatus;
  };
}

/** What a link would do (GET): the still-pending request it answers. Nothing changes. */
export interface QuickActionPreview {
  readonly action: QuickAction;
  readonly request: {
    readonly fromBrand: BrandSummary;
    readonly toBrand: BrandSummary;
    readonly message: string;
    readonly status: RequestStatus;
  };
}

export function isQuickAction(value: string | undefined): value is QuickAction {
  return value === 'accept' || value === 'decline';
}

function linkPath(action: QuickAction, actioner: string, actionee: string, unique: string): string {
  return `quick-action/${[action, actioner, actionee, unique].map(encodeURIComponent).join('/')}`;
}

/** Checks the emailed link and shows its request: public, side-effect free (mail scanners open links). */
export function previewQuickAction(
  action: QuickAction,
  actioner: string,
  actionee: string,
  unique: string,
): Promise<QuickActionPreview> {
  return api.get<QuickActionPreview>(linkPath(action, actioner, actionee, unique), { auth: false });
}

/** Answers the request (the person's click): public, single-use; no session is needed or sent. */
export function runQuickAction(
  action: QuickAction,
  actioner: string,
  actionee: string,
  unique: string,
): Promise<QuickActionResult> {
  return api.post<QuickActionResult>(linkPath(action, actioner, actionee, unique), undefined, { auth: false });
}

/**
 * The link's check, read once: a link works once, so it is never asked again behind
 * the person's back (after their click it would answer "used").
 */
export function quickActionPreviewQuery(brand: string, action: QuickAction, actioner: string, actionee: string, unique: string) {
  return queryOptions({
    queryKey: quickActionKeys.preview(brand, action, actioner, actionee, unique),
    queryFn: () => previewQuickAction(action, actioner, actionee, unique),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
