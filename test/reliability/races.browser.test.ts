// Races in the Lit layer: args that change while a request is in flight, elements removed while
// theirs is, and a reset of the store under elements that are showing data.
import { expect } from '@open-wc/testing';
import { http, HttpResponse, delay } from 'msw';
import { useHandlers } from '../browser/msw.js';
import { Controller } from '../../src/core/controller/controller.js';
import { RestEndpoint } from '../../src/core/rest/rest-endpoint.js';
import { Entity } from '../../src/core/schema/entity.js';
import { defineReader, reader, textOf, until } from '../../src/lit/test-utils/reader.js';
import { failOnUnhandledRejection, mount, sleep, storedData } from './browser-support.js';

class Card extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'RelCard';
}

const getCard = new RestEndpoint({ path: '/mock/reliability/cards/:id', schema: Card });
const cardTag = defineReader(getCard, (card) => card.title);

/** Requests seen, as ids; per-id delays and failures. */
let hits: string[] = [];
function cardHandlers(options: { slow?: Record<string, number>; fail?: string[] } = {}) {
  return http.get('/mock/reliability/cards/:id', async ({ params }) => {
    const id = String(params.id);
    hits.push(id);
    const wait = options.slow?.[id];
    if (wait) await delay(wait);
    if (options.fail?.includes(id)) return HttpResponse.json({ message: 'gone' }, { status: 503 });
    return HttpResponse.json({ id, title: `Card ${id}` });
  });
}

/** Every text the element shows from now on, until `stop()`. */
function record(element: Element) {
  const shown: string[] = [];
  const observer = new MutationObserver(() => shown.push(textOf(element)));
  observer.observe(element, { childList: true, subtree: true, characterData: true });
  return {
    shown,
    stop: () => observer.disconnect(),
  };
}

describe('reliability (browser): races in elements', () => {
  failOnUnhandledRejection();

  beforeEach(async () => {
    hits = [];
    await useHandlers(cardHandlers());
  });

  it('args changed mid-flight: the late answer for the old args is never shown', async () => {
    await useHandlers(cardHandlers({ slow: { a: 150 } }));
    const controller = new Controller();
    controller.setResponse(getCard, { id: 'kept' }, { id: 'kept', title: 'kept' });
    const view = reader(cardTag, { id: 'a' });
    await mount(controller, view);
    const seen = record(view);
    view.params = { id: 'b' };
    await until(() => expect(textOf(view)).to.equal('Card b'));
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    await sleep(20);
    seen.stop();
    expect(seen.shown.filter((text) => text.includes('Card a'))).to.deep.equal([]);
    expect(textOf(view)).to.equal('Card b');
    // Both answers are stored; the one for 'a' is there for whoever asks for it later.
    expect(controller.getResponse(getCard, { id: 'a' }).data?.title).to.equal('Card a');
    expect(controller.getResponse(getCard, { id: 'kept' }).data?.title).to.equal('kept');
  });

  it('args changed mid-flight, and the old request fails: its error is never shown', async () => {
    await useHandlers(cardHandlers({ slow: { x: 120 }, fail: ['x'] }));
    // retry: 0: the old request fails once (with retries its failure would come seconds later).
    const controller = new Controller({ retry: 0 });
    const view = reader(cardTag, { id: 'x' });
    await mount(controller, view);
    const seen = record(view);
    view.params = { id: 'y' };
    await until(() => expect(textOf(view)).to.equal('Card y'));
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    await sleep(20);
    seen.stop();
    expect(seen.shown.filter((text) => text.includes('503'))).to.deep.equal([]);
    expect(view.reader.status).to.equal('complete');
  });

  it('args flipped many times mid-flight: the element ends on the last args', async () => {
    await useHandlers(cardHandlers({ slow: { '0': 80, '2': 60, '4': 40, '6': 20 } }));
    const controller = new Controller();
    const view = reader(cardTag, { id: '0' });
    await mount(controller, view);
    for (let i = 1; i <= 7; i++) {
      view.params = { id: String(i) };
      await view.updateComplete;
    }
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    await sleep(20);
    expect(textOf(view)).to.equal('Card 7');
  });

  it('an element removed mid-flight: its request is aborted, nothing leaks, nothing throws', async () => {
    await useHandlers(cardHandlers({ slow: { late: 100 } }));
    const controller = new Controller({ gcTime: Infinity });
    const baseline = controller.stats();
    const view = reader(cardTag, { id: 'late' });
    const provider = await mount(controller, view);
    expect(controller.stats()).to.deep.include({ subscriptions: 1, listeners: 1, inFlight: 1 });
    // Mid-flight at the server, not only in this page: Firefox can take longer than the mount to
    // pass the request on to msw's worker, and a request aborted before that never reaches it.
    await until(() => expect(hits).to.deep.equal(['late']));
    view.remove();
    expect(controller.stats()).to.deep.include({ subscriptions: 0, listeners: 0 });
    // Nobody needs the answer any more: the request is aborted (issue 14), not finished for nothing.
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    expect(controller.stats()).to.deep.equal(baseline);
    const read = controller.getResponse(getCard, { id: 'late' });
    expect(read.data).to.equal(undefined);
    expect(read.error, 'an abort is not the server speaking: no error is stored').to.equal(
      undefined,
    );
    // Put back, it asks again and shows the answer.
    provider.append(view);
    await view.updateComplete;
    await until(() => expect(textOf(view)).to.equal('Card late'));
    expect(hits).to.deep.equal(['late', 'late']);
  });

  it('an element moved mid-flight keeps its request: one request, data shown', async () => {
    await useHandlers(cardHandlers({ slow: { moved: 60 } }));
    const controller = new Controller({ gcTime: Infinity });
    const view = reader(cardTag, { id: 'moved' });
    const provider = await mount(controller, view);
    const other = document.createElement('div');
    provider.append(other);
    other.append(view);
    await until(() => expect(textOf(view)).to.equal('Card moved'));
    expect(hits).to.deep.equal(['moved']);
  });

  it('an element removed mid-flight whose request would fail: no unhandled rejection, no error kept', async () => {
    await useHandlers(cardHandlers({ slow: { doomed: 60 }, fail: ['doomed'] }));
    const controller = new Controller();
    const view = reader(cardTag, { id: 'doomed' });
    await mount(controller, view);
    // Removed once the server has it (it answers 60 ms later): a request the browser aborts
    // before the mock server sees it can reach the handler during the next test and count there.
    await until(() => expect(hits).to.deep.equal(['doomed']));
    view.remove();
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    expect(controller.getResponse(getCard, { id: 'doomed' }).error).to.equal(undefined);
    expect(controller.stats()).to.deep.include({ subscriptions: 0, listeners: 0 });
  });

  it('resetEntireStore mid-flight: the old answer is dropped, elements fetch again', async () => {
    await useHandlers(cardHandlers({ slow: { r: 100 } }));
    const controller = new Controller();
    const view = reader(cardTag, { id: 'r' });
    await mount(controller, view);
    await until(() => expect(hits).to.deep.equal(['r']));
    controller.resetEntireStore();
    // The element asks again after the reset; that answer is the one shown.
    await until(() => expect(textOf(view)).to.equal('Card r'));
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    expect(hits.length).to.be.greaterThan(1);
    expect(view.reader.status).to.equal('complete');
    const before = storedData(controller);
    await controller.fetch(getCard, { id: 'after' });
    expect(storedData(controller)).to.not.equal(before);
  });

  it('resetEntireStore under elements showing data: they go pending and fetch again', async () => {
    const controller = new Controller();
    const views = ['1', '2', '3'].map((id) => reader(cardTag, { id }));
    await mount(controller, ...views);
    await until(() => views.forEach((v) => expect(v.reader.status).to.equal('complete')));
    hits = [];
    controller.resetEntireStore();
    await until(() => expect([...hits].sort()).to.deep.equal(['1', '2', '3']));
    await until(() => views.forEach((v) => expect(v.reader.status).to.equal('complete')));
    expect(views.map(textOf)).to.deep.equal(['Card 1', 'Card 2', 'Card 3']);
  });
});
