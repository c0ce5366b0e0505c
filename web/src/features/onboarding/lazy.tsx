import { lazy } from 'react';

/**
 * The tips tour and the video guides popup, loaded when first shown: most visits show neither,
 * so the shell's first load does not carry them (BENCH web_initial_js_gz_kb). Render them in a
 * <Suspense> boundary.
 */
export const LazyTipsTour = lazy(() => import('./components/TipsTour').then((m) => ({ default: m.TipsTour })));
export const LazyVideoGuidesPopup = lazy(() =>
  import('./components/VideoGuidesPopup').then((m) => ({ default: m.VideoGuidesPopup })),
);
