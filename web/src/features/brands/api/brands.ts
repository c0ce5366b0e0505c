import { keepPreviousData, useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { api, ApiError, asBrand } from '@/lib/api';
import { useSelectedBrand, useSession } from '@/lib/session';
import { brandKeys } from './keys';

/** docs/api.md "Brands": a brand of the caller's own account, every field. */
export interface Audience {
  readonly ageBands: readonly string[];
  readonly genders: readonly string[];
  readonly countries: readonly string[];
}

export const SOCIAL_NETWORKS = ['instagram', 'tiktok', 'facebook', 'linkedin', 'x', 'youtube'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
export type SocialLinks = Readonly<Record<SocialNetwork, string | null>>;

export const SOCIAL_LABELS: Readonly<Record<SocialNetwork, string>> = {
  instagram: 'Instagram',
  tiktok: 'TikTok',
  facebook: 'Facebook',
  linkedin: 'LinkedIn',
  x: 'X',
  youtube: 'YouTube',
};

export interface Contact {
  readonly name: string | null;
  readonly email: string | null;
  readonly phone: string | null;
}

export interface BrandProfile {
  readonly id: number;
  readonly name: string;
  readonly logoUrl: string | null;
  readonly website: string | null;
  readonly description: string;
  readonly category: string;
  readonly companySize: string;
  /** Followers or list size of the brand's biggest channel, a band of `audienceSizes` ("" when not given). */
  readonly audienceSize: string;
  /** One of `niches[category]` ("" when not given). */
  readonly niche: string;
  /** One of `priceTiers` ("" when not given). */
  readonly priceTier: string;
  readonly audience: Audience;
  readonly values: readonly string[];
  readonly collabKinds: readonly string[];
  readonly social: Partial<SocialLinks>;
  readonly contact: Partial<Contact> | null;
  readonly hideName: boolean;
}

/** What POST brands / PUT brands/{id} take. */
export type BrandInput = Omit<BrandProfile, 'id' | 'logoUrl'>;

export interface Country {
  readonly code: string;
  readonly name: string;
}

/** GET brands/options: the only values the forms offer (the server rejects anything else). */
export interface BrandOptions {
  readonly categories: readonly string[];
  readonly companySizes: readonly string[];
  readonly audienceSizes: readonly string[];
  /** The niches of each category: a brand's niche is one of its category's. */
  readonly niches: Readonly<Record<string, readonly string[]>>;
  readonly priceTiers: readonly string[];
  readonly values: readonly string[];
  readonly collabKinds: readonly string[];
  readonly countries: readonly Country[];
  readonly ageBands: readonly string[];
  readonly genders: readonly string[];
}

export interface SaveBrandResult {
  readonly brand: BrandProfile;
  /** Set when a field that matters for matching changed: a match run started. */
  readonly runId: string | null;
  /** The brand hides its name and its description names it: shown to others with it removed. */
  readonly notice: string | null;
}

/** The public view of any brand, as the selected brand sees it (GET brand/{brandId}). */
export interface PublicBrand {
  readonly id: number;
  readonly name: string;
  readonly nameVisible: boolean;
  readonly logoUrl: string | null;
  readonly website: string | null;
  readonly description: string;
  readonly category: string;
  readonly companySize: string;
  /** "" unless the brand shows its name. */
  readonly audienceSize?: string;
  /** "" when not given (shown like the category, to everyone). */
  readonly niche?: string;
  readonly priceTier?: string;
  readonly audience: Partial<Audience> | null;
  readonly values: readonly string[];
  readonly collabKinds: readonly string[];
  readonly social: Partial<SocialLinks> | null;
  readonly contact: Partial<Contact> | null;
  /** "Usually replies within a day", "Replies to most requests" (none under 3 ended requests). */
  readonly replyLabels?: readonly string[];
}

export interface BrandRelation {
  readonly saved: boolean;
  readonly dismissed: boolean;
  readonly requestState: string | null;
  readonly requestId: string | number | null;
  /** Set while the brand may not ask again yet (after a cancel or decline): says from when. */
  readonly waitMessage?: string | null;
}

export type Fit = 'Great fit' | 'Good fit' | 'Worth a look';

export interface MatchInfo {
  readonly score: number;
  readonly fit: Fit;
  readonly fitPromise: string | null;
  readonly reasons: readonly string[];
}

export interface PublicBrandView {
  readonly brand: PublicBrand;
  readonly relation: BrandRelation;
  readonly match: MatchInfo | null;
  readonly isOwn: boolean;
}

export function listBrands(brand: string): Promise<readonly BrandProfile[]> {
  return api.get<{ brands: BrandProfile[] }>('brands', asBrand(brand)).then((body) => body.brands);
}

export function createBrand(input: BrandInput): Promise<SaveBrandResult> {
  return api
    .post<{ brand: BrandProfile; runId?: string | null; notice?: string | null }>('brands', input)
    .then((body) => ({ brand: body.brand, runId: body.runId ?? null, notice: body.notice ?? null }));
}

export function updateBrand(
  brandId: number,
  input: Partial<BrandInput> & { readonly logoKey?: string | null },
): Promise<SaveBrandResult> {
  return api
    .put<{ brand: BrandProfile; runId?: string | null; notice?: string | null }>(
      `brands/${brandId}`,
      input,
      asBrand(brandId),
    )
    .then((body) => ({ brand: body.brand, runId: body.runId ?? null, notice: body.notice ?? null }));
}

export function getPublicBrand(viewer: string, brandId: string): Promise<PublicBrandView> {
  return api.get<PublicBrandView>(`brand/${encodeURIComponent(brandId)}`, asBrand(viewer));
}

export function getBrandOptions(brand: string): Promise<BrandOptions> {
  return api.get<BrandOptions>('brands/options', asBrand(brand));
}

/* Logo upload ------------------------------------------------------------- */

export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

export const LOGO_MESSAGES = {
  type: 'Choose a PNG, JPEG or WebP image.',
  size: (bytes: number) =>
    `The logo must be 2 MB or smaller; this file is ${(bytes / (1024 * 1024)).toFixed(1)} MB.`,
  empty: 'This file is empty. Choose another image.',
  upload: 'We could not upload your logo. Please try again.',
} as const;

/** Checks a picked file before anything is sent: the message to show, or null. */
export function checkLogoFile(file: Pick<File, 'type' | 'size'>): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return LOGO_MESSAGES.type;
  if (file.size === 0) return LOGO_MESSAGES.empty;
  if (file.size > LOGO_MAX_BYTES) return LOGO_MESSAGES.size(file.size);
  return null;
}

interface PresignedPost {
  readonly url: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly key: string;
  readonly maxBytes: number;
}

/**
 * Uploads a logo straight to storage: asks for a presigned POST, posts the file
 * with its fields, then saves the key on the brand. Resolves with the saved brand.
 */
export async function uploadLogo(brandId: number, file: File): Promise<SaveBrandResult> {
  let presigned: PresignedPost;
  try {
    presigned = await api.post<PresignedPost>(
      `brands/${brandId}/logo`,
      { contentType: file.type, size: file.size },
      asBrand(brandId),
    );
  } catch (error) {
    // A refused upload names the problem in errors.logo.
    const logo = error instanceof ApiError ? error.fieldErrors.logo : undefined;
    throw logo && error instanceof ApiError ? new ApiError(error.status, logo, error.body) : error;
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
  form.append('file', file);
  let response: Response;
  try {
    response = await fetch(presigned.url, { method: 'POST', body: form });
  } catch {
    throw new ApiError(0, LOGO_MESSAGES.upload);
  }
  if (!response.ok) {
    const tooLarge = response.status === 400 && (await response.text()).includes('EntityTooLarge');
    throw new ApiError(response.status, tooLarge ? LOGO_MESSAGES.size(file.size) : LOGO_MESSAGES.upload);
  }
  return updateBrand(brandId, { logoKey: presigned.key });
}

/* Server data (TanStack Query) --------------------------------------------- */

/** The option lists; they only change with a release, so they are asked for once. */
export function useBrandOptions(): UseQueryResult<BrandOptions> {
  const signedIn = useSession() !== null;
  const brand = useSelectedBrand();
  return useQuery({
    queryKey: brandKeys.options(brand),
    queryFn: () => getBrandOptions(brand),
    enabled: signedIn,
    staleTime: Infinity,
  });
}

/** The account's brands (/account/brands). */
export function useMyBrands(): UseQueryResult<readonly BrandProfile[]> {
  const signedIn = useSession() !== null;
  const brand = useSelectedBrand();
  return useQuery({
    queryKey: brandKeys.mine(brand),
    queryFn: () => listBrands(brand),
    enabled: signedIn,
    // A brand made or renamed elsewhere shows when the page is opened again.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * A brand's public view as the member's brand `viewer` sees it; asked for again each
 * time the page opens (relations change), the copy from an earlier visit showing meanwhile.
 */
export function usePublicBrand(viewer: string | null, brandId: string): UseQueryResult<PublicBrandView> {
  return useQuery({
    queryKey: brandKeys.view(viewer ?? '', brandId),
    queryFn: () => getPublicBrand(viewer ?? '', brandId),
    enabled: viewer !== null,
    staleTime: 0,
  });
}

/** Changes the loaded view of one brand (after save, dismiss or a request), for every viewer. */
export function updatePublicBrand(client: QueryClient, brandId: number, change: (view: PublicBrandView) => PublicBrandView): void {
  client.setQueriesData<PublicBrandView>({ queryKey: brandKeys.all }, (view) =>
    view && typeof view === 'object' && 'relation' in view && view.brand.id === brandId ? change(view) : view,
  );
}

/**
 * After a brand was saved: the account's list shows it at once, and what it changes
 * is asked for again (the brand switcher's names, the dashboard's match run, public views).
 */
export function brandSaved(client: QueryClient, saved: BrandProfile, created: boolean): void {
  client.setQueriesData<readonly BrandProfile[]>({ queryKey: brandKeys.all, predicate: (query) => query.queryKey[2] === 'mine' }, (brands) =>
    brands ? (created ? [...brands, saved] : brands.map((item) => (item.id === saved.id ? saved : item))) : brands,
  );
  void client.invalidateQueries({ queryKey: brandKeys.all, predicate: (query) => query.queryKey[2] === 'view' });
}
