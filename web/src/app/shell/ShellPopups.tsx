import { lazy, Suspense } from 'react';
// Types only (erased): the popups themselves still load on demand, below.
import type { ShellPopupsProps } from './ShellPopupsShown';

export type { ShellPopup, ShellPopupsProps } from './ShellPopupsShown';

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
