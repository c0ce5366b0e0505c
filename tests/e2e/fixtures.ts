import axe from 'axe-core';
import { expect, test as base, type ConsoleMessage, type Page } from '@playwright/test';
import { startStack, type LocalStack } from './stack';

/**
 * Every journey checks every page it visits for accessibility: import `test` and
 * `expect` from here, not from '@playwright/test'.
 *
 * Each time a watched page's main frame moves to an address (path) not yet scanned in
 * this test (a load or a client-side route change), axe-core scans it once the page has
 * settled on its heading; an address is scanned once per test (a scan costs the page
 * hundreds of milliseconds of main thread). A scan of a page that moves on while it
 * runs is dropped (the next address gets its own), and the page as the journey leaves
 * it is scanned at the end. A finding on an element that left the page while the scan
 * ran (a popup closing under it) is dropped: axe measured something no longer on screen
 * (a closing confirm's buttons came out at 1.04:1), and a scan the page changed under is run
 * again once it holds still (`runAxe`). Any moderate, serious or critical
 * violation fails the test, listed by address. The `page` fixture is watched
 * automatically; pages a journey opens itself (another member's browser) are watched
 * with `a11y.watch(page)`.
 */

const BLOCKING = new Set(['serious', 'critical']);
/** The default (a11yLevel 'moderate'): moderate findings fail the test too. */
const BLOCKING_FROM_MODERATE = new Set(['moderate', 'serious', 'critical']);
export type A11yLevel = 'serious' | 'moderate';

interface Finding {
  readonly url: string;
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: readonly string[];
}

export interface A11yWatcher {
  /** Scans `page` at every address it visits from now on, and at the end of the test. */
  readonly watch: (page: Page) => void;
  /** Scans the page now (e.g. with a popup open that the journey closes right away). */
  readonly check: (page: Page) => Promise<void>;
}

async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded');
  // Every screen has a level-1 heading once its data is in (or its error is shown).
  await page.locator('h1').first().waitFor({ state: 'visible', timeout: 15_000 });
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'hidden', timeout: 15_000 }).catch(() => undefined);
}

interface PageViolation {
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: readonly string[];
}

/**
 * Runs axe-core in the page's main frame and keeps, of each violation, the nodes still in the
 * document when the scan ends (axe returns element references only in the page itself, hence
 * no @axe-core/playwright here). Third-party frames (the video guides' player) are not ours
 * to scan. `changed` says whether the document changed while axe ran (a MutationObserver on
 * the whole document): its findings may then mix two states of the page.
 */
async function runAxeOnce(page: Page): Promise<{ violations: PageViolation[]; changed: boolean }> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const engine = (window as unknown as { axe: typeof axe }).axe;
    // A CSS transition or animation under way (the phone menu's links hidden 200 ms after it
    // slides shut) changes what axe measures without touching the document: the scan waits for
    // those that end, and one that runs during the scan counts as a change. A spinner that never
    // ends is not waited for.
    const moving = () =>
      document.getAnimations().filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.all(moving().map((a) => a.finished.catch(() => undefined)));
    let changed = false;
    const observer = new MutationObserver(() => {
      changed = true;
    });
    const onMotion = () => {
      changed = true;
    };
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    for (const kind of ['transitionrun', 'animationstart'] as const) document.addEventListener(kind, onMotion, true);
    const results = await engine.run(document, { elementRef: true, resultTypes: ['violations'] });
    changed = changed || observer.takeRecords().length > 0 || moving().length > 0;
    observer.disconnect();
    for (const kind of ['transitionrun', 'animationstart'] as const) document.removeEventListener(kind, onMotion, true);
    const violations = results.violations
      .map((violation) => ({
        rule: violation.id,
        impact: violation.impact ?? '',
        help: violation.help,
        targets: violation.nodes
          .filter((node) => node.element?.isConnected)
          .map((node) => node.target.join(' ')),
      }))
      .filter((violation) => violation.targets.length > 0);
    return { violations, changed };
  });
}

/** The findings of `b` that `a` made too (same rule, same element). */
function common(a: readonly PageViolation[], b: readonly PageViolation[]): PageViolation[] {
  const inA = new Set(a.flatMap((v) => v.targets.map((t) => `${v.rule} ${t}`)));
  return b
    .map((v) => ({ ...v, targets: v.targets.filter((t) => inA.has(`${v.rule} ${t}`)) }))
    .filter((v) => v.targets.length > 0);
}

/**
 * axe's findings on a page that held still while it ran. A page that changed under the scan
 * (the phone menu opening and closing as the journey went on: every link in it came out with
 * no name, their labels measured in one state and the links in the other) is scanned again
 * once it has settled, when a finding would fail the test; if it never holds still for a
 * whole scan (a ticking clock), a finding counts when every scan makes it (three at most), as
 * a real fault on the screen does.
 */
async function runAxe(page: Page, blocking: ReadonlySet<string>): Promise<PageViolation[]> {
  let kept: PageViolation[] | null = null;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const { violations, changed } = await runAxeOnce(page);
    // Only a finding that would fail the test is worth a second scan: a page that changes all
    // the time and has only a minor finding is not scanned three times for nothing.
    if (!changed || !violations.some((v) => blocking.has(v.impact))) return violations;
    kept = kept === null ? violations : common(kept, violations);
    await settled(page);
  }
  return kept ?? [];
}

async function scan(
  page: Page,
  findings: Finding[],
  scanned: Set<string>,
  strict: boolean,
  blocking: ReadonlySet<string> = BLOCKING,
  appOrigin: string | null = null,
): Promise<void> {
  const url = page.url();
  if (!url.startsWith('http')) return;
  // The payment provider's hosted pages (the local fake Stripe, on its own port) are not ours:
  // in production they are Stripe's, so axe of the stand-in would judge nothing we ship.
  if (appOrigin !== null && new URL(url).origin !== appOrigin) return;
  try {
    await settled(page);
    let violations = await runAxe(page, blocking);
    // A rule about the whole document (one heading, one main landmark) judged the page at one
    // instant: a screen swapping its view (a lazy part or a not-found view replacing the heading)
    // can be caught between the two. Such a finding counts only when it is still there once the
    // page has settled again; a real missing heading always is.
    if (violations.some((v) => v.targets.every((t) => t === 'html'))) {
      await settled(page);
      const again = new Set((await runAxe(page, blocking)).map((v) => v.rule));
      violations = violations.filter((v) => !v.targets.every((t) => t === 'html') || again.has(v.rule));
    }
    if (page.url() !== url && !strict) return; // moved on mid-scan: the new address is scanned on its own
    // A full navigation away (signing out) tears the document down before the address changes:
    // a scan that ended on a page whose heading is gone saw a page in between, not this screen
    // (it once reported /account with no main landmark and no heading, just after "Sign out
    // everywhere"). `settled` only scans a screen once its heading shows.
    if (!strict && !(await page.locator('h1').first().isVisible().catch(() => false))) return;
    scanned.add(new URL(url).pathname);
    for (const violation of violations) {
      if (!blocking.has(violation.impact)) continue;
      findings.push({ url: new URL(url).pathname + new URL(url).search, ...violation });
    }
  } catch (error) {
    if (strict && !page.isClosed()) throw error;
    // The page navigated or closed during the scan: nothing to report for this address.
  }
}

/**
 * Every journey also runs under the real Content-Security-Policy: the local stack serves the
 * headers of CloudFront's response headers policy from template.yaml. Any violation a page
 * reports (the `securitypolicyviolation` event, or Chromium's console error for it) fails the
 * test, listed by page: a CSP that breaks a page fails the journey that uses it.
 */
export interface CspWatcher {
  /** The violations reported so far in this test ("<page path>: <directive> <blocked URI>"). */
  readonly violations: () => readonly string[];
  /** Forget the violations reported so far (a test that provokes one on purpose). */
  readonly forget: () => void;
}

const CSP_CONSOLE = /Content Security Policy/i;

export const test = base.extend<
  { a11y: A11yWatcher; a11yLevel: A11yLevel; csp: CspWatcher; jobsWatch: void },
  { localStack: LocalStack }
>({
  // This worker's own local stack (stack.ts); every page, request and new context of its tests
  // uses it as baseURL.
  localStack: [
    async ({}, use, workerInfo) => {
      const stack = await startStack(workerInfo.parallelIndex);
      await use(stack);
      await stack.stop();
    },
    // Two stacks seed at once at a run's start (20-30 s of CPU each on a quiet machine).
    { scope: 'worker', timeout: 300_000 },
  ],
  baseURL: async ({ localStack }, use) => {
    await use(localStack.url);
  },
  // A scheduled job that fails while a journey runs (the clock control runs them: expiry,
  // reminders, digests) fails that journey: the stack only prints it, and a member would not
  // get what the job owed them.
  jobsWatch: [
    async ({ localStack }, use) => {
      const before = localStack.failedJobs().length;
      await use();
      const failed = localStack.failedJobs().slice(before);
      expect(failed, `scheduled jobs failed during this test:\n${failed.join('\n')}`).toEqual([]);
    },
    { auto: true },
  ],

  // Moderate findings fail every journey (issue 39: 0 moderate or worse over every page state
  // the journeys reach); a spec may still lower it with test.use({ a11yLevel: 'serious' }).
  a11yLevel: ['moderate', { option: true }],
  csp: [
    async ({ context }, use) => {
      let reported: string[] = [];
      const where = (url: string) => {
        try {
          return new URL(url).pathname;
        } catch {
          return url;
        }
      };
      await context.exposeBinding('__tandemCspViolation', ({ page }, directive: string, blocked: string) => {
        reported.push(`${where(page.url())}: ${directive} ${blocked}`);
      });
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { __tandemCspViolation?: (d: string, b: string) => void }).__tandemCspViolation;
          void report?.(event.effectiveDirective, event.blockedURI);
        });
      });
      const onConsole = (message: ConsoleMessage) => {
        if (message.type() === 'error' && CSP_CONSOLE.test(message.text())) {
          reported.push(`${where(message.page()?.url() ?? '')}: console: ${message.text().slice(0, 300)}`);
        }
      };
      context.on('console', onConsole);
      await use({ violations: () => [...reported], forget: () => { reported = []; } });
      context.off('console', onConsole);
      expect(reported, `Content-Security-Policy violations:\n${reported.join('\n')}`).toEqual([]);
    },
    { auto: true },
  ],

  a11y: [
    async ({ page, a11yLevel, baseURL }, use, testInfo) => {
      const blocking = a11yLevel === 'moderate' ? BLOCKING_FROM_MODERATE : BLOCKING;
      const appOrigin = baseURL ? new URL(baseURL).origin : null;
      const findings: Finding[] = [];
      const scanned = new Set<string>();
      const watched = new Set<Page>();
      let queue: Promise<void> = Promise.resolve();

      const queued = new Set<string>();
      const watch = (target: Page) => {
        if (watched.has(target)) return;
        watched.add(target);
        target.on('framenavigated', (frame) => {
          if (frame !== target.mainFrame() || !frame.url().startsWith('http')) return;
          const path = new URL(frame.url()).pathname;
          if (queued.has(path)) return;
          queued.add(path);
          queue = queue.then(async () => {
            await scan(target, findings, scanned, false, blocking, appOrigin);
            // Dropped mid-scan: the next visit to this address may try again.
            if (!scanned.has(path)) queued.delete(path);
          });
        });
      };
      const check = async (target: Page) => {
        await queue;
        await scan(target, findings, scanned, true, blocking, appOrigin);
      };

      watch(page);
      await use({ watch, check });

      await queue;
      for (const target of watched) {
        if (target.isClosed() || !target.url().startsWith('http')) continue;
        if (!scanned.has(new URL(target.url()).pathname)) await scan(target, findings, scanned, false, blocking, appOrigin);
      }
      await testInfo.attach('accessibility-scans', {
        body: [...scanned].sort().join('\n'),
        contentType: 'text/plain',
      });
      const report = findings
        .map((f) => `${f.url}: ${f.rule} (${f.impact}) ${f.help}\n    ${f.targets.join('\n    ')}`)
        .join('\n');
      expect(findings, `${a11yLevel} or worse accessibility violations:\n${report}`).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
