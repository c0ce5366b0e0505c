import { lazy, Suspense } from 'react';
import type { LoginCheck } from '@/lib/login-check';

export type ShellPopup = 'help' | 'videoGuides';

export interface ShellPopupsProps {
  readonly firstName: string;
  readonly check: LoginCheck | undefined;
  /** Admins never get the tips tour (SPEC section 6). */
  readonly isAdmin?: boolean;
  readonly open: ShellPopup | null;
  readonly onClose: () => void;
}

// The popups, and what records them, load when one is due: most visits show none of them
// (the welcome and the visibility note once per member, the tour once, help and the video
// guides on request), so the shell's first load does not carry them (BENCH web_initial_js_gz_kb).
const ShellPopupsShown = lazy(() => import('./ShellPopupsShown').then((m) => ({ default: m.ShellPopupsShown })));

/** The popups the shell owns (./ShellPopupsShown): welcome, brand visibility update, the tips tour, help, video guides. */
export function ShellPopups(props: ShellPopupsProps) {
  const { check, isAdmin = false, open } = props;
  const due =
    open !== null ||
    check?.showWelcome === true ||
    check?.showBrandVisibilityUpdatePupup === true ||
    (!isAdmin && check?.showInstructions === true);
  if (!due) return null;
  return (
    <Suspense fallback={null}>
      <ShellPopupsShown {...props} />
    </Suspense>
  );
}
