/** The onboarding feature's public face: the shell's popups and what records them. */
export { useBrandVisibilitySeen, useInstructionsDone, useWelcomeDone } from './api/actions';
export { BrandVisibilityPopup } from './components/BrandVisibilityPopup';
export { HelpPopup } from './components/HelpPopup';
export { WelcomePopup } from './components/WelcomePopup';
export { GuideButton } from './components/GuideButton';
export { guidePageOf } from './guide-pages';
// The tips tour and the video guides popup load on demand (./lazy).
export { LazyTipsTour, LazyVideoGuidesPopup } from './lazy';
