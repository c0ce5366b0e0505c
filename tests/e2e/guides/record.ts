import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { authed, logIn, signIn } from '../members';
import type { GuideScript } from './script';

/**
 * Runs a guide's script: checked (every step's screen and the part it points at are there; CI),
 * or recorded (`make guides`): the viewport recorded with Playwright's video recording, each step
 * framed and held while its caption is read, then written where the local stack serves them and
 * `make deploy` uploads them from (media/guides/, the assets bucket's guides/ keys):
 *   <slug>.<hash>.webm  the video, re-encoded small (VP9, 10 frames a second)
 *   <slug>.<hash>.vtt   WebVTT captions: one cue per step, the outline line it shows, with its time
 *   <slug>.<hash>.jpg   the poster: the first step, framed
 * and the guide's entry in the core layer's guide_recordings.json (what GET videos answers).
 */

const ROOT = resolve(__dirname, '../../..');
export const MEDIA_DIR = join(ROOT, 'media', 'guides');
export const RECORDINGS_FILE = join(ROOT, 'layers/core/python/tandem/content/data/guide_recordings.json');
export const SIZE = { width: 1280, height: 720 } as const;
const FPS = 10;

/** A guide as GET videos answers it (the part the scripts need). */
export interface ListedGuide {
  readonly slug: string;
  readonly title: string;
  readonly type: string;
  readonly outline: readonly string[];
}

const listed = new Map<string, Map<string, ListedGuide>>();

/** The guides of videos.toml, as the API gives them to `who` (asked once per member and run). */
export async function listedGuides(request: APIRequestContext, who: GuideScript['who']): Promise<Map<string, ListedGuide>> {
  const known = listed.get(who.email);
  if (known) return known;
  const { access_token: token } = await logIn(request, who);
  const response = await request.get('/api/videos', { headers: authed(token) });
  if (!response.ok()) throw new Error(`GET videos answered ${response.status()}`);
  const { videos } = (await response.json()) as { videos: ListedGuide[] };
  const guides = new Map(videos.map((guide) => [guide.slug, guide]));
  listed.set(who.email, guides);
  return guides;
}

/** Runs each step and waits until what it points at is on screen; `onStep` paces a recording. */
export async function walk(
  page: Page,
  script: GuideScript,
  onStep: (index: number, target: Locator) => Promise<void> = async () => undefined,
  beforeStep: () => Promise<void> = async () => undefined,
): Promise<void> {
  for (const [index, step] of script.steps.entries()) {
    let target: Locator;
    await beforeStep();
    try {
      target = await step(page);
      await target.scrollIntoViewIfNeeded({ timeout: 15_000 });
      await target.waitFor({ state: 'visible', timeout: 15_000 });
    } catch (error) {
      throw new Error(
        `Guide '${script.slug}' step ${index + 1} no longer finds what it shows on ${page.url()}: ` +
          `the screen changed, so update tests/e2e/guides/${script.slug}.ts and run make guides.\n${String(error)}`,
      );
    }
    await onStep(index, target);
  }
}

/** Seconds a caption stays on screen: about three words a second, 3 to 8 seconds. */
export function holdFor(caption: string): number {
  const words = caption.split(/\s+/).filter(Boolean).length;
  return Math.min(8, Math.max(3, words / 3));
}

/** Takes the ring away while the next step moves on (it would stay over the old place). */
async function unframe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const ring = document.getElementById('guide-focus-ring');
    if (ring) ring.style.display = 'none';
  });
}

/** Brings the part into view below the sticky top bar and rings it (the rest of the screen dimmed). */
async function frame(page: Page, target: Locator): Promise<void> {
  await target.evaluate((element) => {
    if (element.getBoundingClientRect().height > window.innerHeight - 160) {
      element.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -88);
    } else {
      element.scrollIntoView({ block: 'center' });
    }
  });
  const box = await target.boundingBox();
  await page.evaluate((b) => {
    let ring = document.getElementById('guide-focus-ring');
    if (!ring) {
      ring = document.createElement('div');
      ring.id = 'guide-focus-ring';
      ring.setAttribute('aria-hidden', 'true');
      document.body.appendChild(ring);
    }
    if (!b) {
      ring.style.display = 'none';
      return;
    }
    const pad = 6;
    const left = Math.max(2, b.x - pad);
    const top = Math.max(2, b.y - pad);
    const right = Math.min(window.innerWidth - 2, b.x + b.width + pad);
    const bottom = Math.min(window.innerHeight - 2, b.y + b.height + pad);
    Object.assign(ring.style, {
      display: 'block',
      position: 'fixed',
      left: `${left}px`,
      top: `${top}px`,
      width: `${right - left}px`,
      height: `${bottom - top}px`,
      border: '3px solid #f59e0b',
      borderRadius: '12px',
      boxShadow: '0 0 0 9999px rgba(15, 23, 42, 0.18)',
      pointerEvents: 'none',
      zIndex: '2147483647',
    });
  }, box);
}

function timestamp(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** WebVTT with one cue per step: from its start to the next step's (the last to the end). */
export function webvtt(lines: readonly string[], starts: readonly number[], end: number): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const cues = lines.map((line, index) => {
    const until = starts[index + 1] ?? end;
    return `${index + 1}\n${timestamp(starts[index] ?? 0)} --> ${timestamp(until)}\n${escape(line)}\n`;
  });
  return ['WEBVTT', '', ...cues].join('\n');
}

function run(command: string, args: readonly string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf-8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/** Records one guide and writes its files and its entry in guide_recordings.json. */
export async function recordGuide(browser: Browser, baseURL: string, script: GuideScript, guide: ListedGuide): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), `guide-${script.slug}-`));
  const context = await browser.newContext({
    baseURL,
    viewport: SIZE,
    reducedMotion: 'reduce',
    recordVideo: { dir: work, size: SIZE },
  });
  // Signed in on a page of its own (its video is not used); the guide's page shares the session.
  const login = await context.newPage();
  await signIn(login, script.who);
  const page = await context.newPage();
  const born = Date.now();
  await login.close();

  const starts: number[] = [];
  let poster: Buffer | null = null;
  await walk(page, script, async (index, target) => {
    await frame(page, target);
    starts.push((Date.now() - born) / 1000);
    if (index === 0) poster = await page.screenshot({ type: 'jpeg', quality: 72 });
    await page.waitForTimeout(holdFor(guide.outline[index] ?? '') * 1000); // the video's pace, not a wait for the app
  }, () => unframe(page));
  const end = (Date.now() - born) / 1000;
  const video = page.video();
  await context.close();
  if (!video || !poster) throw new Error(`No video was recorded for ${script.slug}`);
  const raw = await video.path();

  // Cut what came before the first step (the page loading) and make it small: VP9, 10 frames a second.
  const trim = starts[0] ?? 0;
  const encoded = join(work, 'guide.webm');
  run('ffmpeg', [
    '-loglevel', 'error', '-y', '-ss', trim.toFixed(3), '-i', raw, '-an',
    '-vf', `fps=${FPS}`, '-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '40', '-deadline', 'realtime', '-cpu-used', '8',
    '-row-mt', '1', '-g', String(FPS * 5), '-pix_fmt', 'yuv420p', encoded,
  ]);
  const seconds = Number(run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', encoded]).trim());
  const captions = webvtt(guide.outline, starts.map((start) => start - trim), Math.min(end - trim, seconds));
  const webm = readFileSync(encoded);
  const hash = createHash('sha256').update(webm).update(captions).update(poster).digest('hex').slice(0, 12);

  mkdirSync(MEDIA_DIR, { recursive: true });
  for (const old of readdirSync(MEDIA_DIR).filter((name) => name.startsWith(`${script.slug}.`))) rmSync(join(MEDIA_DIR, old));
  const name = `${script.slug}.${hash}`;
  writeFileSync(join(MEDIA_DIR, `${name}.webm`), webm);
  writeFileSync(join(MEDIA_DIR, `${name}.vtt`), captions);
  writeFileSync(join(MEDIA_DIR, `${name}.jpg`), poster);
  rmSync(work, { recursive: true, force: true });

  const manifest = existsSync(RECORDINGS_FILE)
    ? (JSON.parse(readFileSync(RECORDINGS_FILE, 'utf-8')) as { guides: Record<string, unknown> })
    : { guides: {} };
  manifest.guides[script.slug] = {
    video: `guides/${name}.webm`,
    captions: `guides/${name}.vtt`,
    poster: `guides/${name}.jpg`,
    seconds: Math.round(seconds * 10) / 10,
    bytes: statSync(join(MEDIA_DIR, `${name}.webm`)).size,
    steps: script.steps.length,
  };
  const sorted = Object.fromEntries(Object.entries(manifest.guides).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(RECORDINGS_FILE, `${JSON.stringify({ guides: sorted }, null, 2)}\n`);
}
