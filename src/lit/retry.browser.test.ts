// Retries seen from an element: a ResourceController on the real Controller, a fake server answered
// by hand and fake timers, so every wait between attempts is exact.
import { expect, fixture, html } from '@open-wc/testing';
import './define-provider.js';
import type { ResourceProvider } from './resource-provider.js';
import { defineReader, reader, textOf, until } from './test-utils/reader.js';
import { Controller } from '../core/controller/controller.js';
import { FakeClock } from '../core/controller/test-utils/fake-clock.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';
import { RestEndpoint } from '../core/rest/rest-endpoint.js';
import { Entity } from '../core/schema/entity.js';

class Note extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'RetryNote';
}

const getNote = new RestEndpoint({ path: '/notes/:id', schema: Note });
const createNote = new RestEndpoint({
  path: '/notes',
  method: 'POST',
  schema: Note,
  body: {} as { title: string },
});
const noteTag = defineReader(getNote, (note) => note.title);

let made: Controller[] = [];
let random: () => number;

function setup(gcTime?: number) {
  const server = new FakeServer();
  const clock = new FakeClock();
  const controller = new Controller({
    fetch: server.fetch,
    now: clock.now,
    timers: clock.timers,
    gcTime,
  });
  made.push(controller);
  return { server, clock, controller };
}

async function mount(controller: Controller, element: Element): Promise<ResourceProvider> {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  provider.append(element);
  await fixture(html`<div>${provider}</div>`);
  return provider;
}

/**
 * Waits until the failed attempt was read and its retry timer set (reading a body takes longer in
 * some engines than a few tasks), so moving the clock cannot come before it.
 */
async function retryScheduled(clock: FakeClock): Promise<void> {
  await until(() => expect(clock.pending).to.equal(1));
}

/** Lets the endpoint build its request and the response body be read (macrotasks). */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('retries (Chromium, real Controller, injected timers)', () => {
  beforeEach(() => {
    // No jitter: each wait is the fixed half of the backoff (500 ms, then 1 s).
    random = Math.random;
    Math.random = () => 0;
  });
  afterEach(() => {
    Math.random = random;
    for (const controller of made) controller.dispose();
    made = [];
  });

  it('503, 503, 200: three requests, pending throughout, then the data shown', async () => {
    const { server, clock, controller } = setup();
    const view = reader(noteTag, { id: '1' });
    await mount(controller, view);
    const shown: string[] = [];
    const observer = new MutationObserver(() => shown.push(textOf(view)));
    observer.observe(view, { childList: true, subtree: true, characterData: true });
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(503, { message: 'busy' });
    await retryScheduled(clock);
    expect(textOf(view)).to.equal('pending');
    clock.advance(499);
    await settle();
    expect(server.waiting).to.have.length(0);
    clock.advance(1);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(503, { message: 'busy' });
    await retryScheduled(clock);
    clock.advance(1_000);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, { id: '1', title: 'third time lucky' });
    await until(() => expect(textOf(view)).to.equal('third time lucky'));
    observer.disconnect();
    expect(server.calls.map((call) => call.url)).to.deep.equal([
      '/notes/1',
      '/notes/1',
      '/notes/1',
    ]);
    expect(shown.filter((text) => text.includes('503'))).to.deep.equal([]);
    expect(view.reader.error).to.equal(undefined);
  });

  it('respects Retry-After: 2 on the injected clock', async () => {
    const { server, clock, controller } = setup();
    const view = reader(noteTag, { id: '2' });
    await mount(controller, view);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(503, undefined, { 'Retry-After': '2' });
    await retryScheduled(clock);
    clock.advance(1_999);
    await settle();
    expect(server.waiting).to.have.length(0);
    clock.advance(1);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, { id: '2', title: 'after two seconds' });
    await until(() => expect(textOf(view)).to.equal('after two seconds'));
  });

  it('a retried read that finally fails shows the last error', async () => {
    const { server, clock, controller } = setup();
    const view = reader(noteTag, { id: '3' });
    await mount(controller, view);
    for (const status of [500, 502, 503]) {
      await until(() => expect(server.waiting).to.have.length(1));
      server.take().respond(status, { message: `failed with ${status}` });
      if (status !== 503) await retryScheduled(clock);
      clock.advance(1_000);
    }
    await until(() => expect(view.reader.status).to.equal('error'));
    await view.updateComplete;
    expect(textOf(view)).to.contain('503');
    expect(server.calls).to.have.length(3);
  });

  it('a POST is not retried', async () => {
    const { server, clock, controller } = setup();
    const created = controller.fetch(createNote, { title: 'once' });
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(503);
    let failure: unknown;
    await created.catch((error: unknown) => (failure = error));
    expect((failure as { status: number }).status).to.equal(503);
    clock.advance(60_000);
    await settle();
    expect(server.calls.map((call) => call.method)).to.deep.equal(['POST']);
  });

  it('the host leaving during the wait between attempts ends the retries (no timer left)', async () => {
    const { server, clock, controller } = setup(Infinity); // no GC timer: only the retry's counts
    const view = reader(noteTag, { id: '5' });
    const provider = await mount(controller, view);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(503);
    await retryScheduled(clock);
    expect(controller.stats()).to.deep.include({ inFlight: 1, timers: 1 }); // waiting
    view.remove();
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    clock.advance(60_000);
    await settle();
    expect(server.calls).to.have.length(1);
    expect(controller.stats().timers).to.equal(0);
    expect(provider.isConnected).to.equal(true);
  });

  it('args changed during the wait between attempts: the old read sends nothing more', async () => {
    const { server, clock, controller } = setup(Infinity); // no GC timer: only the retry's counts
    const view = reader(noteTag, { id: '6' });
    await mount(controller, view);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(503);
    await retryScheduled(clock);
    view.params = { id: '7' };
    view.requestUpdate();
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /notes/7').respond(200, { id: '7', title: 'seven' });
    await until(() => expect(textOf(view)).to.equal('seven'));
    await until(() => expect(controller.stats()).to.deep.include({ inFlight: 0, timers: 0 }));
    clock.advance(60_000);
    await settle();
    expect(server.calls.map((call) => call.url)).to.deep.equal(['/notes/6', '/notes/7']);
  });

  it("waits while the window is offline and tries again on its 'online' event", async () => {
    const { server, clock, controller } = setup();
    const view = reader(noteTag, { id: '4' });
    await mount(controller, view);
    await until(() => expect(server.waiting).to.have.length(1));
    window.dispatchEvent(new Event('offline'));
    server.take().fail(new TypeError('Failed to fetch'));
    await retryScheduled(clock);
    clock.advance(60_000);
    await settle();
    expect(server.waiting).to.have.length(0);
    window.dispatchEvent(new Event('online'));
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, { id: '4', title: 'back online' });
    await until(() => expect(textOf(view)).to.equal('back online'));
  });
});
