/**
 * A `PushSource` over Server-Sent Events. Browser-only: it needs `EventSource` (given in the
 * options, or the page's own).
 */
import type { PushMessage } from './push-message.js';
import type { PushSource } from './push.js';

/** Options of `eventSource()`. */
export interface EventSourceOptions {
  /** The EventSource constructor (tests pass a counting or fake one). Default: the page's. */
  EventSource?: typeof EventSource;
  /** Send cookies to another origin. */
  withCredentials?: boolean;
}

/**
 * Reads `PushMessage`s (one JSON object per SSE `data:`) from `url`. On an error the manager
 * closes the EventSource and opens a new one with its own backoff; the new one carries the last
 * event id as the `lastEventId` query parameter, since a new EventSource cannot set the
 * `Last-Event-ID` header (the server should honour both, as the demo API does).
 * @example new PushManager({ source: eventSource('/api/events'), entities: { Todo } });
 */
export function eventSource(url: string, options: EventSourceOptions = {}): PushSource {
  // For the console: a stream's query often carries a token (EventSource cannot send headers).
  const where = url.replace(/[?#].*/s, '');
  return (handlers) => {
    const Source = options.EventSource ?? globalThis.EventSource;
    if (typeof Source !== 'function') {
      throw new Error('EventSource is not available here: pass `EventSource` in the options.');
    }
    const target =
      handlers.lastEventId === undefined
        ? url
        : `${url}${url.includes('?') ? '&' : '?'}lastEventId=${encodeURIComponent(handlers.lastEventId)}`;
    const source = new Source(target, { withCredentials: options.withCredentials ?? false });
    source.onopen = () => handlers.open();
    source.onerror = () => handlers.error();
    source.onmessage = (event: MessageEvent<string>) => {
      let message: PushMessage;
      try {
        message = JSON.parse(event.data) as PushMessage;
      } catch {
        const id = event.lastEventId ? ` (id ${event.lastEventId})` : '';
        console.error(
          `resource-elements eventSource: ${where} sent an event${id} that is not JSON; it was skipped.`,
        );
        return;
      }
      if (message && typeof message === 'object' && message.id === undefined && event.lastEventId) {
        message = { ...message, id: event.lastEventId };
      }
      handlers.message(message);
    };
    return { close: () => source.close() };
  };
}
