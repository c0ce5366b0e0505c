import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * One local stack per Playwright worker (tests/e2e/README.md, "One stack per worker").
 *
 * Each worker starts its own `python -m infra.local.stack` on an empty data folder, so it seeds
 * the demo data afresh, and every test the worker runs talks to that stack only (its `baseURL`).
 * Two workers never share a seeded member, an outbox or a global setting, so the journeys run
 * side by side exactly as they run alone. Worker 0 listens on E2E_PORT when it is set (a helper's
 * own port); every other worker on a port the system picks.
 */

const ROOT = resolve(__dirname, '../..');
const READY = /Tandem is running at (http:\/\/127\.0\.0\.1:\d+)/;

export interface LocalStack {
  readonly url: string;
  readonly stop: () => Promise<void>;
  /** Every "Scheduled job <name> failed: ..." line the stack has printed so far. */
  readonly failedJobs: () => readonly string[];
}

const JOB_FAILED = /^Scheduled job \S+ failed: .*$/gm;

export async function startStack(workerIndex: number): Promise<LocalStack> {
  const port = workerIndex === 0 && process.env.E2E_PORT ? Number(process.env.E2E_PORT) : 0;
  const dataDir = mkdtempSync(join(tmpdir(), `tandem-e2e-${workerIndex}-`));
  const child = spawn(
    join(ROOT, '.venv/bin/python'),
    // --schedules manual: no job runs by the wall clock under a journey (the nightly match run
    // at 03:00 UTC, the digest on the hour); a journey that needs one runs it (POST /__local/jobs/<job>).
    ['-m', 'infra.local.stack', '--port', String(port), '--data-dir', dataDir, '--schedules', 'manual'],
    {
      cwd: ROOT,
      // The journeys sign many members up from 127.0.0.1: the stack's sign-up limit per network
      // (20 an hour) is raised for this run only (SIGN_UPS_PER_HOUR is honoured on the local stage).
      env: { ...process.env, SIGN_UPS_PER_HOUR: '500', PYTHONUNBUFFERED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let errors = '';
  const url = await new Promise<string>((done, fail) => {
    let said = '';
    const onOutput = (chunk: Buffer) => {
      said += chunk.toString();
      const ready = READY.exec(said);
      if (ready) {
        child.stdout?.off('data', onOutput);
        done(ready[1]!);
      }
    };
    child.stdout?.on('data', onOutput);
    // The stack's errors go to this run's output, as the webServer's stderr did.
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      errors += chunk.toString();
    });
    child.once('exit', (code) => fail(new Error(`the local stack of worker ${workerIndex} exited (${code}) before it was ready:\n${said}`)));
  });
  child.stdout?.resume(); // keep draining what it prints later, so it never blocks on a full pipe
  return {
    url,
    // The data folder goes with the stack: each worker's is fresh, and nothing reads it afterwards.
    stop: () => stopStack(child).then(() => rmSync(dataDir, { recursive: true, force: true })),
    failedJobs: () => errors.match(JOB_FAILED) ?? [],
  };
}

function stopStack(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM'); // the stack finishes the requests in flight, then exits
  });
}
