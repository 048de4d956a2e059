// Starts the real frameworks' servers the recipes of docs/guide/your-api.md run against: Django
// REST Framework, FastAPI and Rails from Debian's packages, Express from npm (a devDependency), on
// a free loopback port, each with fresh state. `scripts/ensure-frameworks.mjs` installs Debian's
// (`npm test` and CI run it first).
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian's Python, which sees Debian's packages (a pyenv python3 first on PATH does not). */
export const PYTHON = '/usr/bin/python3';
/** Debian's Ruby and its rackup, which see Debian's gems (an rbenv ruby first on PATH may not). */
export const RUBY = '/usr/bin/ruby';
export const RACKUP = '/usr/bin/rackup';
const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * Why the frameworks cannot run here, or undefined when they can. In CI they must: a test that
 * gets a reason there fails instead of skipping.
 */
export function missingFrameworks(): string | undefined {
  const probe = spawnSync(
    PYTHON,
    ['-c', 'import rest_framework, django_filters, fastapi, uvicorn, multipart'],
    { encoding: 'utf8' },
  );
  if (probe.status === 0) return undefined;
  return required(
    `DRF/FastAPI not installed for ${PYTHON} (node scripts/ensure-frameworks.mjs installs them)`,
  );
}

/** Why Rails cannot run here (as missingFrameworks). */
export function missingRails(): string | undefined {
  const probe = spawnSync(
    RUBY,
    [
      '-e',
      'require "rails"; require "active_record/railtie"; require "sqlite3"; require "webrick"',
    ],
    { encoding: 'utf8' },
  );
  if (probe.status === 0 && spawnSync(RACKUP, ['--version']).status === 0) return undefined;
  return required(
    `Rails not installed for ${RUBY} (node scripts/ensure-frameworks.mjs installs Debian's ruby-rails and ruby-sqlite3)`,
  );
}

/** Why Express cannot run here (as missingFrameworks): it and express-validator are devDependencies. */
export function missingExpress(): string | undefined {
  const require = createRequire(import.meta.url);
  try {
    require.resolve('express');
    require.resolve('express-validator');
    return undefined;
  } catch {
    return required('express or express-validator not installed (npm install installs them)');
  }
}

/** A reason to skip, except in CI, where what is missing fails the tests. */
function required(reason: string): string {
  if (process.env.CI) throw new Error(reason);
  return reason;
}

export interface RunningServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** What the server printed, for a failing test's message. */
  readonly output: () => string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function start(
  command: string[],
  cwd: string,
  ready: string,
  { cleanup, env }: { cleanup?: () => void; env?: Record<string, string> } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    command[0]!,
    command.slice(1).map((arg) => arg.replace('$PORT', String(port))),
    { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    cleanup?.();
  };
  // Ready when it answers (about a second); 20 s at most.
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      cleanup?.();
      throw new Error(`${command.join(' ')} exited (${child.exitCode}):\n${output}`);
    }
    try {
      await fetch(origin + ready, { redirect: 'manual' });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(
          `${command.join(' ')} did not answer ${origin}${ready} in 20 s:\n${output}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { origin, output: () => output, stop };
}

/** DRF with a fresh SQLite database; users ann and bob, tokens `ann-token` and `bob-token`. */
export function startDrf(): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'drf-'));
  return start([PYTHON, 'serve.py', '$PORT', join(dir, 'db.sqlite3')], join(here, 'drf'), '/api/', {
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });
}

/** FastAPI with empty state; users ann and bob (passwords `ann-password`, `bob-password`). */
export function startFastApi(): Promise<RunningServer> {
  return start(
    // Idle connections kept longer than undici keeps them, so a reused one is never closed under it.
    [
      PYTHON,
      '-m',
      'uvicorn',
      'app:app',
      '--host',
      '127.0.0.1',
      '--port',
      '$PORT',
      '--timeout-keep-alive',
      '75',
    ],
    join(here, 'fastapi'),
    '/projects',
  );
}

/** Express (test/real-apis/express/app.mjs) with no todos. */
export function startExpress(): Promise<RunningServer> {
  return start([process.execPath, 'app.mjs', '$PORT'], join(here, 'express'), '/api/todos');
}

/** Rails (test/real-apis/rails/config.ru) on WEBrick, with a fresh SQLite database. */
export function startRails(): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'rails-'));
  return start(
    [RACKUP, '--server', 'webrick', '--host', '127.0.0.1', '--port', '$PORT', 'config.ru'],
    join(here, 'rails'),
    '/todos',
    {
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
      // Rails' own setting for the database when there is no config/database.yml.
      env: { DATABASE_URL: `sqlite3:${join(dir, 'db.sqlite3')}` },
    },
  );
}

/**
 * A fetch that records the status of every answer it gets, in order: what a test reads to see
 * whether the server answered a revalidation with a 304.
 */
export function statusRecordingFetch(): { fetch: typeof fetch; statuses: number[] } {
  const statuses: number[] = [];
  return {
    statuses,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
  };
}
