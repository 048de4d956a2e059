/* global setInterval, clearInterval */
// Server-Sent Events for the demo API: every change made through the API, as a stream a page can
// follow (GET /api/events). Each event has an id; a client that reconnects with `Last-Event-ID`
// (the header EventSource sends, or the `lastEventId` query parameter a new EventSource can carry)
// gets what it missed from a bounded history, or a `gap` event when that is gone, so it knows to
// revalidate instead.

const HISTORY = 200;
const RESUMES_KEPT = 20;
const HEARTBEAT_MS = 15_000;

/**
 * The API's change log: `emit(message)` numbers a message and tells every stream; `since(id)`
 * gives what followed `id`, or undefined when the history no longer reaches back to it.
 * @example
 * const log = createEventLog();
 * log.emit({ type: 'upsert', entity: 'Todo', data: todo });
 */
export function createEventLog({ history = HISTORY } = {}) {
  // Ids carry the log's start time, so an id from before a server restart is never mistaken for
  // one of this run's.
  const epoch = Date.now().toString(36);
  let counter = 0;
  const events = [];
  const listeners = new Set();
  // The latest resumes only: a server that runs for days sees a reconnect from every client that
  // dropped, and must not keep them all.
  const resumes = [];
  let resumed = 0;
  return {
    emit(message) {
      const id = `${epoch}-${++counter}`;
      const event = { id, message: { ...message, id } };
      events.push(event);
      if (events.length > history) events.shift();
      for (const listener of [...listeners]) listener(event);
      return event.id;
    },
    since(id) {
      const [from, n] = String(id).split('-');
      const seq = Number(n);
      if (from !== epoch || !Number.isInteger(seq) || seq > counter) return undefined;
      if (seq === counter) return [];
      const first = events[0] ? Number(events[0].id.split('-')[1]) : counter + 1;
      // Events after seq are seq+1 …; they must all still be here.
      if (seq + 1 < first) return undefined;
      return events.filter((event) => Number(event.id.split('-')[1]) > seq);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Notes a stream resumed from `id` (the last `RESUMES_KEPT` are kept, for tests). */
    resume(id) {
      resumed++;
      resumes.push(id);
      if (resumes.length > RESUMES_KEPT) resumes.shift();
    },
    /** The latest `Last-Event-ID`s streams resumed from, newest last (for tests). */
    resumes,
    /** How many streams resumed since the server started (for tests). */
    get resumed() {
      return resumed;
    },
    get open() {
      return listeners.size;
    },
    /** The id of the latest event (for tests). */
    get last() {
      return events[events.length - 1]?.id;
    },
    /** Ends every open stream, as a dropped connection would (for tests). */
    drop() {
      for (const listener of [...listeners]) listener(undefined);
    },
  };
}

function frame(event) {
  return `id: ${event.id}\ndata: ${JSON.stringify(event.message)}\n\n`;
}

/**
 * Serves one event stream on a Node request/response pair until the client goes away.
 * @example openEventStream(log, req, res, req.headers['last-event-id']);
 */
export function openEventStream(log, request, response, lastEventId) {
  response.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
  });
  // Tells EventSource how long to wait before its own reconnect; clients with their own backoff
  // close on error anyway.
  response.write('retry: 1000\n\n');
  if (lastEventId) {
    log.resume(lastEventId);
    const missed = log.since(lastEventId);
    if (missed === undefined) {
      response.write(`data: ${JSON.stringify({ type: 'gap' })}\n\n`);
    } else {
      for (const event of missed) response.write(frame(event));
    }
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
    response.end();
  };
  const unsubscribe = log.subscribe((event) => {
    if (event === undefined) close();
    else response.write(frame(event));
  });
  const heartbeat = setInterval(() => response.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref?.();
  request.on('close', close);
  response.on('error', close);
}
