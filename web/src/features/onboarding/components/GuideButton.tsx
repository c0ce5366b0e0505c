import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useSelectedBrand } from '@/lib/session';
import { shownGuides, videosQuery } from '../api/videos';
import { LazyVideoGuidesPopup } from '../lazy';

/**
 * The "Guide" button of a page: the Video Guides whose pageNames name this page. One guide
 * opens in the player at once; several open as a short list of just those. Nothing is shown on
 * a page without a guide. A guide already watched is marked on the button too.
 */
export function GuideButton({ pageName }: { readonly pageName: string | null }) {
  const brand = useSelectedBrand();
  const list = useQuery({ ...videosQuery(brand), enabled: pageName !== null });
  const [open, setOpen] = useState(false);
  const guides = pageName === null ? [] : shownGuides(list.data).filter((g) => g.pageNames.includes(pageName));
  if (guides.length === 0) return null;
  const [only] = guides;
  const single = guides.length === 1 && only !== undefined ? only : null;
  const allWatched = guides.every((g) => g.watched);
  // The name starts with the visible word "Guide" (voice users say what they see).
  const label = single ? `Guide: ${single.title}` : `Guide: ${guides.length} videos for this page`;

  return (
    <>
      <button
        type="button"
        className={`guide-button${allWatched ? ' guide-button--watched' : ''}`}
        aria-label={`${label}${allWatched ? ' (watched)' : ''}`}
        title={label}
        onClick={() => {
          setOpen(true);
        }}
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M10 8.5v7l5.5-3.5z" fill="currentColor" />
        </svg>
        <span className="guide-button__text" aria-hidden="true">
          Guide
        </span>
        {allWatched && (
          <span className="guide-button__tick" aria-hidden="true">
            ✓
          </span>
        )}
      </button>
      {open && (
        <Suspense fallback={null}>
          <LazyVideoGuidesPopup
            initial={single?.slug}
            only={guides.map((g) => g.slug)}
            onClose={() => {
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
