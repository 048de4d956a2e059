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

// When the file's tests are done, the worker stops and its registration goes, so no later page of
// this browser is controlled by it. A page it controls sends even unmocked requests through the
// worker's own fetch, and Firefox does not cancel that fetch when the page aborts: an EventSource
// closed in a later file stayed open at the API (test/managers provider tests, in full runs).
after(async () => {
  if (!started) return;
  worker.stop();
  const registrations = await navigator.serviceWorker.getRegistrations();
  await Promise.all(registrations.map((registration) => registration.unregister()));
});
