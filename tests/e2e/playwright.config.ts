import { defineConfig } from '@playwright/test';
import { join, resolve } from 'node:path';

// One rule for every spec (README.md, "One stack per worker"): each worker starts its own local
// stack on an empty data folder (stack.ts, the `localStack` fixture in fixtures.ts) and runs its
// spec files one after another, in file-name order, against it. So a spec file must pass on a
// fresh seed after ANY subset of the files named before it (or none) ran on the same stack:
// read the seeded members (members.ts) freely, but a journey that changes what another spec reads
// of a seeded member (credits, plan, profile, the global message...) signs up its own member
// (`newMember`) instead. Import `test` from ./fixtures, never from '@playwright/test'.
const root = resolve(__dirname, '../..');

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 60_000,
  // The local stack (moto, in-process handlers) can take several seconds for a screen's
  // first calls on a busy machine (issue 10 §1-2); a missing element fails after 15 s.
  expect: { timeout: 15_000 },
  retries: 0,
  // Two stacks and two browsers fill this 2-core machine; E2E_WORKERS=1 runs them one by one.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  reporter: [['list']],
  outputDir: join(root, '.local/e2e-results'),
  use: {
    screenshot: 'only-on-failure',
    // Popups open without their fade/rise animation (the app honours prefers-reduced-motion),
    // so a journey's screenshots and scans see them as they settle. A context option: `use`
    // has no `reducedMotion` of its own (it was silently ignored there).
    contextOptions: { reducedMotion: 'reduce' },
    launchOptions: {
      // Debian's Chromium as its headless shell (package chromium-headless-shell, the build the
      // chromium package ships, without the full browser's windowing layers: what Playwright
      // itself runs headless). Playwright never downloads a browser here; CHROMIUM_PATH=/usr/bin/chromium
      // runs the journeys in the full browser.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
