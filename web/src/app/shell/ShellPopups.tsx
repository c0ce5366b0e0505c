import { useState } from 'react';
import { BRAND_PROFILE_PATH } from '@/features/navigation/menu';
import { acknowledgeBrandVisibility, finishWelcome } from '@/features/onboarding/api/actions';
import { BrandVisibilityPopup } from '@/features/onboarding/components/BrandVisibilityPopup';
import { HelpPopup } from '@/features/onboarding/components/HelpPopup';
import { VideoGuidesPopup } from '@/features/onboarding/components/VideoGuidesPopup';
import { WelcomePopup } from '@/features/onboarding/components/WelcomePopup';
import { markBrandVisibilitySeen, markWelcomeSeen, type LoginCheck } from '@/lib/login-check';

export type ShellPopup = 'help' | 'videoGuides';

export interface ShellPopupsProps {
  readonly firstName: string;
  readonly check: LoginCheck | null;
  readonly open: ShellPopup | null;
  readonly onClose: () => void;
}

/** The popups the shell owns: welcome, brand visibility update, help, video guides. */
export function ShellPopups({ firstName, check, open, onClose }: ShellPopupsProps) {
  const [welcomeClosed, setWelcomeClosed] = useState(false);
  const [visibilityClosed, setVisibilityClosed] = useState(false);
  const showWelcome = check?.showWelcome === true && !welcomeClosed;
  const showVisibility = !showWelcome && check?.showBrandVisibilityUpdatePupup === true && !visibilityClosed;

  const onWelcomeFinish = async () => {
    try {
      await finishWelcome();
      markWelcomeSeen();
    } catch {
      // Shown as a toast by the API client; the popup returns next visit.
    }
    setWelcomeClosed(true);
  };

  const onVisibilityDone = async () => {
    setVisibilityClosed(true);
    try {
      await acknowledgeBrandVisibility();
      markBrandVisibilitySeen();
    } catch {
      // Shown as a toast by the API client.
    }
  };

  return (
    <>
      {showWelcome && (
        <WelcomePopup
          firstName={firstName}
          message={check.showWelcomeOpenerMessage ? check.welcomeMessage : null}
          onFinish={onWelcomeFinish}
          onClose={() => {
            setWelcomeClosed(true);
          }}
        />
      )}
      {showVisibility && <BrandVisibilityPopup settingsPath={BRAND_PROFILE_PATH} onDone={onVisibilityDone} />}
      {open === 'help' && <HelpPopup onClose={onClose} />}
      {open === 'videoGuides' && <VideoGuidesPopup onClose={onClose} />}
    </>
  );
}
