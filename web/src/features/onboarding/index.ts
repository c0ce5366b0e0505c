/** The onboarding feature's public face: the shell's popups and what records them. */
export { useBrandVisibilitySeen, useInstructionsDone, useWelcomeDone } from './api/actions';
export { BrandVisibilityPopup } from './components/BrandVisibilityPopup';
export { HelpPopup } from './components/HelpPopup';
export { VideoGuidesPopup } from './components/VideoGuidesPopup';
export { WelcomePopup } from './components/WelcomePopup';
export { TipsTour } from './components/TipsTour';
export { GuideButton } from './components/GuideButton';
export { guidePageOf } from './guide-pages';
