import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// A fresh local stack per run: its own port and an empty data folder (so it seeds demo data).
const port = Number(process.env.E2E_PORT ?? 8765);
const root = resolve(__dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'tandem-e2e-'));
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 60_000,
  // The local stack (moto, in-process handlers) can take several seconds for a screen's
  // first calls on a busy machine (issue 10 §1-2); a missing element fails after 15 s.
  expect: { timeout: 15_000 },
  retries: 0,
  workers: 1,
  reporter: [['list']],
  outputDir: join(root, '.local/e2e-results'),
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    // Popups open without their fade/rise animation (the app honours prefers-reduced-motion),
    // so a journey's screenshots and scans see them as they settle. A context option: `use`
    // has no `reducedMotion` of its own (it was silently ignored there).
    contextOptions: { reducedMotion: 'reduce' },
    launchOptions: {
      // Debian's Chromium; Playwright never downloads a browser here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
  webServer: {
    command: `${join(root, '.venv/bin/python')} -m infra.local.stack --port ${port} --data-dir ${dataDir}`,
    cwd: root,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // The journeys sign many members up from 127.0.0.1: the stack's sign-up limit per network
    // (20 an hour) is raised for this run only (SIGN_UPS_PER_HOUR is honoured on the local stage).
    env: { ...(process.env as Record<string, string>), SIGN_UPS_PER_HOUR: '500' },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
