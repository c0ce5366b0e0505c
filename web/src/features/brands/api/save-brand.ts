import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError, messageOf } from '@/lib/api';
import { refreshDashboard } from '@/lib/session-state';
import { brandSaved, createBrand, updateBrand, uploadLogo, type BrandInput, type BrandProfile } from './brands';

export interface SavedBrand {
  readonly brand: BrandProfile;
  readonly created: boolean;
  /** Set when a match run started for the brand. */
  readonly runId: string | null;
  /** The profile saved but the logo did not upload: the message to show. */
  readonly logoError: string | null;
  /** The saved description names the brand while its name is hidden: what the owner is told. */
  readonly nameNotice: string | null;
}

/** What the brand form saves: the profile, and the logo the member chose or removed. */
export interface BrandSave {
  /** The brand edited; null adds a new one. */
  readonly brand: BrandProfile | null;
  readonly input: BrandInput;
  /** A new logo, uploaded once the profile is saved. */
  readonly logo: File | null;
  /** Remove the current logo. */
  readonly removeLogo: boolean;
}

async function saveBrand({ brand, input, logo, removeLogo }: BrandSave): Promise<SavedBrand> {
  const result =
    brand === null
      ? await createBrand(input)
      : await updateBrand(brand.id, removeLogo ? { ...input, logoKey: null } : input);
  let saved = result.brand;
  let runId = result.runId;
  let logoError: string | null = null;
  if (logo) {
    try {
      const uploaded = await uploadLogo(saved.id, logo);
      saved = uploaded.brand;
      runId = uploaded.runId ?? runId;
    } catch (error) {
      // The profile is saved: a refused logo is told with it, unless the session ended.
      if (messageOf(error) === null) throw error;
      logoError = describeError(error);
    }
  }
  return { brand: saved, created: brand === null, runId, logoError, nameNotice: result.notice };
}

/**
 * Adds or saves one of the member's brands, then uploads its new logo. Saved: the member's
 * brands show it at once, and the dashboard is asked again (it names the brands and the
 * match run a save starts, which the app shell's MatchRunWatcher follows). A refusal is the
 * form's to show, on its fields (a 400's per-field messages) or above them.
 */
export function useSaveBrand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveBrand,
    onSuccess: ({ brand, created }) => {
      brandSaved(client, brand, created);
      void refreshDashboard(client);
    },
  });
}
