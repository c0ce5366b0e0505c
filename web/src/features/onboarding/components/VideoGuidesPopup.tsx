import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/Button';
import { LoadFailed } from '@/components/ui/ListStates';
import { focusableWithin } from '@/components/ui/focus';
import { Modal } from '@/components/ui/Modal';
import { PageLoader } from '@/components/ui/PageLoader';
import { useSelectedBrand } from '@/lib/session';
import { shownGuides, useVideoViewed, videosQuery, type VideoGuide } from '../api/videos';

/**
 * Video Guides (SPEC section 2): the list, each guide marked when watched, and the guide's
 * view. A guide recorded from the app plays in the browser's own `<video>` (its controls work
 * from the keyboard), captions on from the start, and is marked watched when it plays to the
 * end or the member marks it. An editorial video embeds youtube-nocookie or Wistia with a plain
 * link under it (opening it records the view). A guide with no video yet shows its poster,
 * description and outline with a clear "coming soon", and "Mark as watched".
 */
export function VideoGuidesPopup({
  onClose,
  initial,
  only,
}: {
  readonly onClose: () => void;
  /** The guide to open at once (a page's Guide button). */
  readonly initial?: string;
  /** List only these guides (a page's own). */
  readonly only?: readonly string[];
}) {
  const brand = useSelectedBrand();
  const list = useQuery(videosQuery(brand));
  const [open, setOpen] = useState<string | null>(initial ?? null);
  const guides = shownGuides(list.data).filter((g) => only === undefined || only.includes(g.slug));
  const guide = guides.find((g) => g.slug === open);
  const lone = only !== undefined && guides.length === 1; // a page's one guide: nothing to go back to
  // The list's button and the guide's view replace each other, so focus would drop to <body>
  // (Space would not play, Tab would start behind the popup): it moves into the guide on
  // opening, and back to that guide's button on All guides.
  const listRef = useRef<HTMLUListElement>(null);
  const cameBackFrom = useRef<string | null>(null);
  useEffect(() => {
    const slug = cameBackFrom.current;
    if (open !== null || slug === null || !listRef.current) return;
    cameBackFrom.current = null;
    listRef.current.querySelector<HTMLElement>(`[data-guide="${CSS.escape(slug)}"]`)?.focus();
  }, [open, list.data]);

  return (
    <Modal open title={guide ? guide.title : 'Video Guides'} width={1000} onClose={onClose}>
      {list.data === undefined ? (
        list.isError ? (
          <LoadFailed title="We couldn't load the video guides" error={list.error} retry={() => void list.refetch()} />
        ) : (
          <div aria-busy="true">
            <PageLoader inline />
          </div>
        )
      ) : guide ? (
        <GuideView
          guide={guide}
          backLabel={lone ? 'Done' : 'All guides'}
          onBack={() => {
            if (lone) onClose();
            else {
              cameBackFrom.current = guide.slug;
              setOpen(null);
            }
          }}
        />
      ) : (
        <ul ref={listRef} className="video-grid" aria-label="Video guides">
          {guides.map((g) => (
            <li key={g.slug} className="video-card">
              <img className="video-card__poster" src={g.poster} alt="" width={320} height={180} loading="lazy" />
              <button
                type="button"
                className="video-card__open"
                data-guide={g.slug}
                onClick={() => {
                  setOpen(g.slug);
                }}
              >
                {g.title}
              </button>
              <span className="muted">{cardLabel(g)}</span>
              {g.watched && <span className="watched-mark">Watched</span>}
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

/** "Video · 0:42", or that the video is still to come. */
function cardLabel(guide: VideoGuide): string {
  if (guide.src) return guide.seconds ? `Video · ${duration(guide.seconds)}` : 'Video';
  return guide.videoId ? 'Video' : 'Written guide · video coming soon';
}

function duration(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

function GuideView({
  guide,
  onBack,
  backLabel,
}: {
  readonly guide: VideoGuide;
  readonly onBack: () => void;
  readonly backLabel: string;
}) {
  const viewed = useVideoViewed();
  const recorded = useRef(false);
  const played = Boolean(guide.src); // recorded from the app: our own <video>
  const playable = played || guide.embedUrl !== null;
  const viewRef = useRef<HTMLDivElement>(null);

  // Opened from the list (or after the list loaded): focus goes to the player, as it does when a
  // page's Guide button opens the popup on this guide.
  useEffect(() => {
    const view = viewRef.current;
    if (view && !view.contains(document.activeElement)) focusableWithin(view)[0]?.focus();
  }, [guide.slug]);

  // An embedded video counts as watched once its player is opened (once per opening); ours
  // when it has played to the end (or the member says so).
  useEffect(() => {
    if (guide.embedUrl !== null && !played && !guide.watched && !recorded.current) {
      recorded.current = true;
      viewed.mutate(guide.slug);
    }
  }, [guide.embedUrl, played, guide.watched, guide.slug, viewed]);

  return (
    <div ref={viewRef} className="video-guide">
      {played ? (
        <div className="video-player video-player--own">
          <video
            controls
            tabIndex={0} // focusable everywhere, not only where the platform's controls make it so
            preload="metadata"
            poster={guide.poster}
            src={guide.src ?? undefined}
            aria-label={`Video: ${guide.title}`}
            onEnded={() => {
              if (!guide.watched && !recorded.current) {
                recorded.current = true;
                viewed.mutate(guide.slug);
              }
            }}
          >
            {guide.captions && <track default kind="captions" srcLang="en" label="English" src={guide.captions} />}
          </video>
        </div>
      ) : playable ? (
        <>
          <div className="video-player">
            <iframe
              src={guide.embedUrl ?? undefined}
              title={`Video: ${guide.title}`}
              allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
              allowFullScreen
              loading="lazy"
              referrerPolicy="strict-origin-when-cross-origin"
            />
          </div>
          {guide.watchUrl && (
            <p className="muted">
              Video not loading?{' '}
              <a href={guide.watchUrl} target="_blank" rel="noopener noreferrer">
                Watch it on {guide.type === 'youtube' ? 'YouTube' : 'Wistia'}
              </a>
            </p>
          )}
        </>
      ) : (
        <>
          <img className="video-guide__poster" src={guide.poster} alt="" width={640} height={360} />
          <p className="coming-soon__badge">Video coming soon</p>
        </>
      )}
      <p>{guide.description}</p>
      <h3>{playable ? 'In this video' : 'What it covers'}</h3>
      <ol>
        {guide.outline.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ol>
      <div className="video-guide__actions">
        <Button variant="secondary" onClick={onBack}>
          {backLabel}
        </Button>
        {guide.watched ? (
          <span className="watched-mark">Watched</span>
        ) : (
          (played || !playable) && (
            <Button
              busy={viewed.isPending}
              onClick={() => {
                viewed.mutate(guide.slug);
              }}
            >
              Mark as watched
            </Button>
          )
        )}
      </div>
    </div>
  );
}
