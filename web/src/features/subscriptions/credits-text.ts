import type { CreditsInfo } from '@/lib/session-state';

/**
 * The badge text 'available/total' ('5/6'), or null when it is hidden (no credits info or a total
 * of 0). On its own, without lib/format, so the shell's top bar carries nothing else of billing.
 */
export function creditsText(credits: CreditsInfo | null | undefined): string | null {
  const total = credits?.total ?? 0;
  if (!Number.isFinite(total) || total <= 0) return null;
  const available = Math.max(0, credits?.available ?? 0);
  return `${available}/${total}`;
}
