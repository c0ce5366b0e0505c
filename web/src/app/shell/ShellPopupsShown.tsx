import { Suspense } from 'react';
import { BRAND_PROFILE_PATH } from '@/features/navigation';
import {
  BrandVisibilityPopup,
  HelpPopup,
  LazyTipsTour,
  LazyVideoGuidesPopup,
  useBrandVisibilitySeen,
  useInstructionsDone,
  useWelcomeDone,
  WelcomePopup,
} from '@/features/onboarding';
import type { LoginCheck } from '@/lib/login-check';

function noop(): void {
  // settled: nothing more to do here
}

export type ShellPopup = 'help' | 'videoGuides';

export interface ShellPopupsProps {
  readonly firstName: string;
  readonly check: LoginCheck | undefined;
  /** Admins never get the tips tour (SPEC section 6). */
  readonly isAdmin?: boolean;
  readonly open: ShellPopup | null;
  readonly onClose: () => void;
}

/**
 * The popups the shell owns: welcome, brand visibility update, the tips tour, help, video guides.
 * The welcome and the visibility note show while the login check asks for them; done
 * with (finished or closed), they are recorded and the check stops asking at once.
 * Loaded by <ShellPopups> when one of them is due; the tour and the video guides load on their own.
 */
export function ShellPopupsShown({ firstName, check, isAdmin = false, open, onClose }: ShellPopupsProps) {
  const welcomeDone = useWelcomeDone();
  const visibilitySeen = useBrandVisibilitySeen();
  const instructionsDone = useInstructionsDone();
  const showWelcome = check?.showWelcome === true;
  const showVisibility = !showWelcome && check?.showBrandVisibilityUpdatePupup === true;
  // The tips tour comes after the welcome and the visibility note, and waits while a popup is open.
  const showTour = !isAdmin && !showWelcome && !showVisibility && open === null && check?.showInstructions === true;

  // A refusal is told by the write's error toast; the popup stays closed on this visit.
  const endWelcome = () => welcomeDone.mutateAsync().then(noop, noop);
  const onVisibilityDone = () => visibilitySeen.mutateAsync().then(noop, noop);
  const endTour = () => {
    instructionsDone.mutate();
  };

  return (
    <>
      {showTour && (
        <Suspense fallback={null}>
          <LazyTipsTour onDone={endTour} />
        </Suspense>
      )}
      {showWelcome && (
        <WelcomePopup
          firstName={firstName}
          message={check.showWelcomeOpenerMessage ? check.welcomeMessage : null}
          onFinish={endWelcome}
          onClose={() => void endWelcome()}
        />
      )}
      {showVisibility && <BrandVisibilityPopup settingsPath={BRAND_PROFILE_PATH} onDone={onVisibilityDone} />}
      {open === 'help' && <HelpPopup onClose={onClose} />}
      {open === 'videoGuides' && (
        <Suspense fallback={null}>
          <LazyVideoGuidesPopup onClose={onClose} />
        </Suspense>
      )}
    </>
  );
}
