import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, asBrand } from '@/lib/api';
import { errorToast } from '@/lib/mutations';
import { useSelectedBrand } from '@/lib/session';

/**
 * SPEC section 3 "Video", with what the popup shows besides (GET videos). Three types: SPEC's
 * youtube and wistia (our editorial videos, embedded), and `recorded`: a guide recorded from the
 * app itself (`make guides`), played by the browser's own `<video>` with its WebVTT captions.
 */
export interface VideoGuide {
  readonly slug: string;
  /** A youtube or wistia video's id; null for a recorded guide and until an editorial video exists. */
  readonly videoId: string | null;
  readonly title: string;
  readonly type: 'youtube' | 'wistia' | 'recorded';
  readonly pageNames: readonly string[];
  readonly ignore: boolean;
  readonly description: string;
  readonly outline: readonly string[];
  readonly poster: string;
  readonly embedUrl: string | null;
  readonly watchUrl: string | null;
  /** A recorded guide's video (WebM), its captions (WebVTT) and its length; null until it is recorded. */
  readonly src?: string | null;
  readonly captions?: string | null;
  readonly seconds?: number | null;
  /** This member has played (or read) it. */
  readonly watched: boolean;
}

export interface VideoList {
  readonly videos: readonly VideoGuide[];
}

export const videoKeys = {
  all: ['videos'] as const,
  list: (brand: string) => ['videos', brand] as const,
};

export function videosQuery(brand: string) {
  return queryOptions({
    queryKey: videoKeys.list(brand),
    queryFn: () => api.get<VideoList>('videos', asBrand(brand)),
  });
}

/** The guides a member is shown: ignored ones left out. */
export function shownGuides(list: VideoList | undefined): VideoGuide[] {
  return (list?.videos ?? []).filter((guide) => !guide.ignore);
}

/** PUT users/video-view/{slug}: the guide is marked watched here at once and on the server. */
export function useVideoViewed() {
  const client = useQueryClient();
  const brand = useSelectedBrand();
  return useMutation({
    meta: errorToast('Video Guides'),
    mutationFn: (slug: string) => api.put(`users/video-view/${encodeURIComponent(slug)}`),
    onMutate: (slug) => {
      client.setQueryData<VideoList>(videoKeys.list(brand), (list) =>
        list ? { videos: list.videos.map((g) => (g.slug === slug ? { ...g, watched: true } : g)) } : list,
      );
    },
    onError: () => void client.invalidateQueries({ queryKey: videoKeys.list(brand) }),
  });
}
