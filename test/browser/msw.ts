// One msw worker for the whole browser test file, started once. Mocked paths live under /mock/,
// apart from the real API the test runner serves, so a mock that failed to start cannot pass a test.
import { setupWorker } from 'msw/browser';
import type { RequestHandler } from 'msw';

export const worker = setupWorker();
let started: Promise<unknown> | undefined;

/** Starts the worker (once) and replaces its handlers with `handlers`. */
export async function useHandlers(...handlers: RequestHandler[]): Promise<void> {
  started ??= worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
  await started;
  worker.resetHandlers(...handlers);
}
