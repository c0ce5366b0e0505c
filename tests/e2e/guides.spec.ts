import type { BrowserContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { GUIDES } from './guides';
import { listedGuides, recordGuide, SIZE, walk } from './guides/record';
import { signIn } from './members';

/**
 * The recorded video guides (tests/e2e/guides/): each guide's script walks the screens its
 * outline explains. Here (CI) each one runs without recording, so a guide whose screen changed
 * fails the build instead of showing members something the app no longer has. With
 * GUIDES_RECORD=1 (`make guides`) each is recorded instead: video, captions, poster.
 */
const RECORD = process.env.GUIDES_RECORD === '1';

/** Each member signs in once for the whole check (their session, as the browser keeps it). */
const signedIn = new Map<string, Awaited<ReturnType<BrowserContext['storageState']>>>();

for (const script of GUIDES) {
  test(`the '${script.slug}' guide ${RECORD ? 'is recorded' : "still runs on today's screens"}`, async ({ browser, request, baseURL }) => {
    test.setTimeout(RECORD ? 240_000 : 90_000);
    const guide = (await listedGuides(request, script.who)).get(script.slug);
    expect(guide, `videos.toml has no guide '${script.slug}'`).toBeDefined();
    if (!guide) return;
    expect(guide.type, `'${script.slug}' is recorded from the app: its type in videos.toml is recorded`).toBe('recorded');
    expect(script.steps.length, `one step per line of the guide's outline in videos.toml`).toBe(guide.outline.length);

    if (RECORD) {
      await recordGuide(browser, baseURL ?? '', script, guide);
      return;
    }
    // A context of its own, as a recording has: the journeys' accessibility scans are theirs.
    const session = signedIn.get(script.who.email);
    const context = await browser.newContext({ baseURL, viewport: SIZE, reducedMotion: 'reduce', storageState: session });
    const page = await context.newPage();
    if (!session) {
      await signIn(page, script.who);
      signedIn.set(script.who.email, await context.storageState());
    }
    await walk(page, script);
    await context.close();
  });
}
