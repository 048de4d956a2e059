import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, html as litHtml } from 'lit';
import { Controller, Entity, ResourceController, createResource } from '../index.js';
import { ResourceProvider } from '../index.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';
import { PendingTaskEvent, ResourceBoundary } from './index.js';
import { until as waitUntil } from '../lit/test-utils/reader.js';

class Card extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'BoundaryCard';
}
const CardResource = createResource({ path: '/cards/:id', schema: Card });

class BoundaryCard extends LitElement {
  static override properties = { cardId: { attribute: 'card-id' } };
  cardId = '';
  readonly card = new ResourceController(this, CardResource.get, () => ({ id: this.cardId }));
  protected override render() {
    return this.card.render({ complete: (card) => litHtml`${card.title}` });
  }
}
customElements.define('boundary-card', BoundaryCard);

/** A card that renders its own errors. */
class SelfReliantCard extends BoundaryCard {
  protected override render() {
    return this.card.render({
      complete: (card) => litHtml`${card.title}`,
      error: (error) => litHtml`Failed: ${(error as Error).message}`,
    });
  }
}
customElements.define('self-reliant-card', SelfReliantCard);

const state = (boundary: ResourceBoundary) =>
  boundary.waiting ? 'fallback' : boundary.errors.length > 0 ? 'error' : 'content';

/** Records whether the fallback was ever shown. */
function watchFallback(boundary: ResourceBoundary): { shown: boolean } {
  const seen = { shown: boundary.waiting };
  const fallback = boundary.shadowRoot!.querySelector('[part="fallback"]')!;
  new MutationObserver(() => {
    if (!fallback.hasAttribute('hidden')) seen.shown = true;
  }).observe(fallback, { attributes: true });
  return seen;
}

/** Lets settled promises and the store's commits run. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Waits for `check` to pass (3 s: these tests render through a provider). */
const until = (check: () => void) => waitUntil(check, 3000);

async function mount(server: FakeServer, content: unknown) {
  // retry: 0: a failed read goes to the boundary at once (retries are not the subject here).
  const controller = new Controller({ fetch: server.fetch, retry: 0 });
  const provider = await fixture<ResourceProvider>(
    html`<resource-provider .controller=${controller}>${content}</resource-provider>`,
  );
  return { controller, provider };
}

describe('<resource-boundary>', () => {
  let unhandled: unknown[];
  const onUnhandled = (event: PromiseRejectionEvent) => unhandled.push(event.reason);
  beforeEach(() => {
    unhandled = [];
    window.addEventListener('unhandledrejection', onUnhandled);
  });
  afterEach(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    window.removeEventListener('unhandledrejection', onUnhandled);
    expect(unhandled).to.deep.equal([]);
  });

  it('shows the fallback until three nested readers resolve, then the content', async () => {
    const server = new FakeServer();
    const { provider } = await mount(
      server,
      html`<resource-boundary>
        <p slot="fallback">Loading cards</p>
        <boundary-card card-id="1"></boundary-card>
        <div>
          <boundary-card card-id="2"></boundary-card>
          <section><boundary-card card-id="3"></boundary-card></section>
        </div>
      </resource-boundary>`,
    );
    const boundary = provider.querySelector('resource-boundary')!;
    await boundary.updateComplete;
    expect(state(boundary)).to.equal('fallback');
    expect(server.calls.map((call) => call.url)).to.deep.equal([
      '/cards/1',
      '/cards/2',
      '/cards/3',
    ]);
    server.take('GET /cards/2').respond(200, { id: '2', title: 'Two' });
    server.take('GET /cards/1').respond(200, { id: '1', title: 'One' });
    await flush();
    await boundary.updateComplete;
    expect(state(boundary), 'one reader still waits').to.equal('fallback');
    server.take('GET /cards/3').respond(200, { id: '3', title: 'Three' });
    await until(() => expect(state(boundary)).to.equal('content'));
    const fallback = boundary.shadowRoot!.querySelector('[part="fallback"]')!;
    expect(fallback.hasAttribute('hidden')).to.equal(true);
    const cards = [...provider.querySelectorAll('boundary-card')];
    expect(cards.map((card) => card.shadowRoot!.textContent)).to.deep.equal([
      'One',
      'Two',
      'Three',
    ]);
  });

  it('shows no fallback when the reads resolve within its delay', async () => {
    const server = new FakeServer();
    const { provider } = await mount(
      server,
      html`<resource-boundary delay="150"
        ><boundary-card card-id="1"></boundary-card
      ></resource-boundary>`,
    );
    const boundary = provider.querySelector('resource-boundary')!;
    await boundary.updateComplete;
    const seen = watchFallback(boundary);
    server.take().respond(200, { id: '1', title: 'Fast' });
    await until(() =>
      expect(provider.querySelector('boundary-card')!.shadowRoot!.textContent).to.equal('Fast'),
    );
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(seen.shown).to.equal(false);
    expect(state(boundary)).to.equal('content');
  });

  it('shows the fallback once the delay passes while a read still waits', async () => {
    const server = new FakeServer();
    const { provider } = await mount(
      server,
      html`<resource-boundary delay="50"
        ><boundary-card card-id="1"></boundary-card
      ></resource-boundary>`,
    );
    const boundary = provider.querySelector('resource-boundary')!;
    await boundary.updateComplete;
    expect(state(boundary)).to.equal('content');
    await until(() => expect(state(boundary)).to.equal('fallback'));
    server.take().respond(200, { id: '1', title: 'Slow' });
    await until(() => expect(state(boundary)).to.equal('content'));
  });

  it('a 500 shows the error slot; Retry refetches the failed read and shows the content', async () => {
    const server = new FakeServer();
    const { provider } = await mount(
      server,
      html`<resource-boundary
        ><boundary-card card-id="1"></boundary-card><boundary-card card-id="2"></boundary-card
      ></resource-boundary>`,
    );
    const boundary = provider.querySelector('resource-boundary')!;
    const errors: unknown[] = [];
    boundary.addEventListener('resource-boundary-error', (event) =>
      errors.push((event as CustomEvent).detail.errors),
    );
    server.take('GET /cards/1').respond(200, { id: '1', title: 'One' });
    server.take('GET /cards/2').respond(500, { message: 'down' });
    await until(() => expect(state(boundary)).to.equal('error'));
    const alert = boundary.shadowRoot!.querySelector('[part="error"]')!;
    expect(alert.hasAttribute('hidden')).to.equal(false);
    expect(alert.textContent).to.match(/GET \/cards\/2 failed: 500/);
    expect(errors).to.have.length(1);
    (boundary.shadowRoot!.querySelector('[part="retry"]') as HTMLButtonElement).click();
    await until(() => expect(server.waiting.map((call) => call.url)).to.deep.equal(['/cards/2']));
    expect(state(boundary), 'waiting again').to.equal('fallback');
    expect(server.calls.filter((call) => call.url === '/cards/1')).to.have.length(1);
    server.take().respond(200, { id: '2', title: 'Two' });
    await until(() => expect(state(boundary)).to.equal('content'));
    expect(provider.querySelectorAll('boundary-card')[1]!.shadowRoot!.textContent).to.equal('Two');
  });

  it('Retry sends one request per failed read, however many elements show it', async () => {
    const server = new FakeServer();
    const { provider } = await mount(
      server,
      html`<resource-boundary
        ><boundary-card card-id="1"></boundary-card><boundary-card card-id="1"></boundary-card
        ><boundary-card card-id="2"></boundary-card
      ></resource-boundary>`,
    );
    const boundary = provider.querySelector('resource-boundary')!;
    await until(() => expect(server.waiting).to.have.length(2));
    server.take('GET /cards/1').respond(500, { message: 'down' });
    server.take('GET /cards/2').respond(503, { message: 'down' });
    await until(() => expect(state(boundary)).to.equal('error'));
    (boundary.shadowRoot!.querySelector('[part="retry"]') as HTMLButtonElement).click();
    await until(() => expect(server.waiting).to.have.length(2));
    await flush();
    // Before: each element refetched its own read, and /cards/1 was asked for twice.
    expect(server.waiting.map((call) => call.url).sort()).to.deep.equal(['/cards/1', '/cards/2']);
    server.take('GET /cards/1').respond(200, { id: '1', title: 'One' });
    server.take('GET /cards/2').respond(200, { id: '2', title: 'Two' });
    await until(() => expect(state(boundary)).to.equal('content'));
    const titles = [...provider.querySelectorAll('boundary-card')].map(
      (card) => card.shadowRoot!.textContent,
    );
    expect(titles).to.deep.equal(['One', 'One', 'Two']);
  });

  it('a boundary moved while it waits out its delay shows the fallback when the delay passes', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div>
        <resource-boundary delay="30"><div></div></resource-boundary>
      </div>`,
    );
    const boundary = wrapper.querySelector('resource-boundary')!;
    let done!: () => void;
    boundary
      .querySelector('div')!
      .dispatchEvent(new PendingTaskEvent(new Promise<void>((resolve) => (done = resolve))));
    // Moved (a list reordered): disconnected, then connected again. Before: leaving stopped the
    // delay's timer and nothing started it again, so the content showed until the wait ended.
    wrapper.append(boundary);
    await until(() => expect(state(boundary)).to.equal('fallback'));
    done();
    await until(() => expect(state(boundary)).to.equal('content'));
    // A failed element removed while the boundary is out of the document: its failure goes too.
    const chart = boundary.querySelector('div')!;
    chart.dispatchEvent(new PendingTaskEvent(Promise.reject(new Error('chart failed'))));
    await until(() => expect(state(boundary)).to.equal('error'));
    boundary.remove();
    chart.remove();
    wrapper.append(boundary);
    await until(() => expect(state(boundary)).to.equal('content'));
    expect(boundary.errors).to.deep.equal([]);
  });

  it('content that replaces a failed element shows: its failure left with it', async () => {
    const server = new FakeServer();
    const { provider } = await mount(
      server,
      html`<resource-boundary
        ><boundary-card card-id="1"></boundary-card>
        <p>Static</p></resource-boundary
      >`,
    );
    const boundary = provider.querySelector('resource-boundary')!;
    server.take().respond(500, { message: 'down' });
    await until(() => expect(state(boundary)).to.equal('error'));
    // A route change: the failed page is replaced. Before: the old error stayed and hid the new
    // page, and Retry retried the element that had left, which failed again.
    const next = document.createElement('boundary-card') as BoundaryCard;
    next.cardId = '2';
    provider.querySelector('boundary-card')!.replaceWith(next);
    await until(() => expect(state(boundary)).to.equal('fallback'));
    server.take('GET /cards/2').respond(200, { id: '2', title: 'Two' });
    await until(() => expect(state(boundary)).to.equal('content'));
    expect(next.shadowRoot!.textContent).to.equal('Two');
  });

  it('a failed element removed with nothing in its place: the rest of the content shows', async () => {
    const server = new FakeServer();
    const { provider } = await mount(
      server,
      html`<resource-boundary
        ><boundary-card card-id="1"></boundary-card>
        <p>Static</p></resource-boundary
      >`,
    );
    const boundary = provider.querySelector('resource-boundary')!;
    server.take().respond(500, { message: 'down' });
    await until(() => expect(state(boundary)).to.equal('error'));
    provider.querySelector('boundary-card')!.remove();
    await until(() => expect(state(boundary)).to.equal('content'));
    expect(boundary.errors).to.deep.equal([]);
  });

  it('an element removed while it waits: the fallback goes, and a failure it reports after is not shown', async () => {
    const boundary = await fixture<ResourceBoundary>(
      html`<resource-boundary
        ><div></div>
        <p>Static</p></resource-boundary
      >`,
    );
    const chart = boundary.querySelector('div')!;
    let abort!: (error: unknown) => void;
    chart.dispatchEvent(new PendingTaskEvent(new Promise((_, reject) => (abort = reject))));
    await until(() => expect(state(boundary)).to.equal('fallback'));
    // A route removed the chart. Before: its wait held the fallback over the rest of the content
    // for as long as the promise stayed pending (for ever, for work nobody finishes).
    chart.remove();
    await until(() => expect(state(boundary)).to.equal('content'));
    // The chart aborts its fetch as it leaves. Before: that rejection showed as the boundary's
    // error, with a Retry for an element no longer there.
    abort(new DOMException('The chart left', 'AbortError'));
    await flush();
    await boundary.updateComplete;
    expect(state(boundary)).to.equal('content');
    expect(boundary.errors).to.deep.equal([]);
  });

  it('a failed card moved under another boundary fails there; so does a new reader of the failed read', async () => {
    const server = new FakeServer();
    const { provider } = await mount(
      server,
      html`<resource-boundary id="a"><boundary-card card-id="1"></boundary-card></resource-boundary>
        <resource-boundary id="b"><p>B</p></resource-boundary>`,
    );
    const a = provider.querySelector<ResourceBoundary>('#a')!;
    const b = provider.querySelector<ResourceBoundary>('#b')!;
    server.take().respond(500, { message: 'down' });
    await until(() => expect(state(a)).to.equal('error'));
    b.append(provider.querySelector('boundary-card')!);
    await until(() => expect(state(a)).to.equal('content'));
    // Before: b showed its content, the card an empty box: no error and no Retry anywhere.
    await until(() => expect(state(b)).to.equal('error'));
    // A card of the same read mounted now finds the failure stored (no new request): it has
    // nothing to show either. Before: a showed it as an empty box.
    const again = document.createElement('boundary-card') as BoundaryCard;
    again.cardId = '1';
    a.append(again);
    await until(() => expect(state(a)).to.equal('error'));
    expect(server.calls).to.have.length(1);
    (b.shadowRoot!.querySelector('[part="retry"]') as HTMLButtonElement).click();
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, { id: '1', title: 'One' });
    await until(() => expect(state(b)).to.equal('content'));
    await until(() => expect(state(a)).to.equal('content'));
    expect(again.shadowRoot!.textContent).to.equal('One');
  });

  it('a card that renders its own errors and finds its read failed keeps its error to itself', async () => {
    const server = new FakeServer();
    const { controller, provider } = await mount(
      server,
      html`<resource-boundary><p>Static</p></resource-boundary>`,
    );
    const failed = controller.fetch(CardResource.get, { id: '1' }).catch(() => {});
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(404, { message: 'no card 1' });
    await failed;
    const boundary = provider.querySelector('resource-boundary')!;
    const card = document.createElement('self-reliant-card') as BoundaryCard;
    card.cardId = '1';
    boundary.append(card);
    await until(() => expect(card.shadowRoot!.textContent).to.match(/^Failed:/));
    await flush();
    expect(state(boundary)).to.equal('content');
  });

  it('a read that failed for want of a provider shows once a provider defined later answers', async () => {
    // The provider's module loads after the page: the card finds no provider at first (its task
    // fails with that error), then binds when the provider upgrades and reads again. That new
    // task is the same work started over: its outcome, not the old failure, decides.
    const tag = 'boundary-late-provider';
    const wrapper = await fixture<HTMLDivElement>(
      html`<div>
        <boundary-late-provider
          ><resource-boundary><boundary-card card-id="1"></boundary-card></resource-boundary
        ></boundary-late-provider>
      </div>`,
    );
    const boundary = wrapper.querySelector('resource-boundary')!;
    const server = new FakeServer();
    (wrapper.querySelector(tag) as unknown as ResourceProvider).controller = new Controller({
      fetch: server.fetch,
      retry: 0,
    });
    await until(() => expect(state(boundary)).to.equal('error'));
    expect(String(boundary.errors[0])).to.contain('<boundary-card>');
    customElements.define(tag, class extends ResourceProvider {});
    await until(() => expect(server.calls).to.have.length(1));
    server.take('GET /cards/1').respond(200, { id: '1', title: 'One' });
    await until(() =>
      expect(wrapper.querySelector('boundary-card')!.shadowRoot!.textContent).to.equal('One'),
    );
    await until(() => expect(state(boundary)).to.equal('content'));
    expect(boundary.errors).to.deep.equal([]);
  });

  it('a failed read that then gets its data without the boundary (another reader, a push) shows the content', async () => {
    const server = new FakeServer();
    const { controller, provider } = await mount(
      server,
      html`<resource-boundary><boundary-card card-id="1"></boundary-card></resource-boundary>`,
    );
    const boundary = provider.querySelector('resource-boundary')!;
    server.take().respond(500, { message: 'down' });
    await until(() => expect(state(boundary)).to.equal('error'));
    const card = provider.querySelector('boundary-card')!;
    // Another part of the page fetched the card again (or a push wrote it): the card has its data.
    controller.setResponse(CardResource.get, { id: '1' }, { id: '1', title: 'One' });
    await until(() => expect(card.shadowRoot!.textContent).to.equal('One'));
    // Before: the boundary kept the old failure and hid the card behind it until Retry.
    await until(() => expect(state(boundary)).to.equal('content'));
    expect(boundary.errors).to.deep.equal([]);
    expect(server.calls).to.have.length(1);
  });

  it('an element that renders its own errors keeps them: the boundary shows its content', async () => {
    const server = new FakeServer();
    const { provider } = await mount(
      server,
      html`<resource-boundary
        ><self-reliant-card card-id="1"></self-reliant-card
      ></resource-boundary>`,
    );
    const boundary = provider.querySelector('resource-boundary')!;
    await boundary.updateComplete;
    expect(state(boundary)).to.equal('fallback');
    server.take().respond(404, { message: 'no card 1' });
    await until(() => expect(state(boundary)).to.equal('content'));
    expect(provider.querySelector('self-reliant-card')!.shadowRoot!.textContent).to.match(
      /^Failed:/,
    );
  });

  it('stale data refreshing does not bring the fallback back', async () => {
    const server = new FakeServer();
    const { controller, provider } = await mount(
      server,
      html`<resource-boundary><boundary-card card-id="1"></boundary-card></resource-boundary>`,
    );
    const boundary = provider.querySelector('resource-boundary')!;
    server.take().respond(200, { id: '1', title: 'Old' });
    await until(() => expect(state(boundary)).to.equal('content'));
    const seen = watchFallback(boundary);
    void controller.refetch(CardResource.get, { id: '1' });
    await flush();
    expect(server.waiting).to.have.length(1);
    server.take().respond(200, { id: '1', title: 'New' });
    await until(() =>
      expect(provider.querySelector('boundary-card')!.shadowRoot!.textContent).to.equal('New'),
    );
    expect(seen.shown).to.equal(false);
  });

  it('a plain HTMLElement joins with the pending-task event; the nearest boundary catches', async () => {
    const outer = await fixture<ResourceBoundary>(
      html`<resource-boundary
        ><resource-boundary><div></div></resource-boundary
      ></resource-boundary>`,
    );
    const inner = outer.querySelector('resource-boundary')!;
    const plain = inner.querySelector('div')!;
    let done!: () => void;
    plain.dispatchEvent(new PendingTaskEvent(new Promise<void>((resolve) => (done = resolve))));
    await inner.updateComplete;
    expect(state(inner)).to.equal('fallback');
    expect(state(outer), 'the outer boundary is not told').to.equal('content');
    done();
    await until(() => expect(state(inner)).to.equal('content'));
    // Any event named pending-task with a promise works: no import of ours needed.
    const foreign = new Event('pending-task', { bubbles: true, composed: true });
    Object.assign(foreign, { complete: Promise.reject(new Error('chart failed')) });
    plain.dispatchEvent(foreign);
    await until(() => expect(state(inner)).to.equal('error'));
    expect(inner.errors.map((error) => (error as Error).message)).to.deep.equal(['chart failed']);
  });

  it('a read inside the fallback or error slot is not waited on: the outer boundary catches it', async () => {
    const server = new FakeServer();
    const { provider } = await mount(
      server,
      html`<resource-boundary id="outer">
        <resource-boundary id="inner">
          <div slot="fallback">
            <p>Loading. Tip:</p>
            <boundary-card card-id="tip"></boundary-card>
          </div>
          <p slot="error"><span></span></p>
          <boundary-card card-id="1"></boundary-card>
        </resource-boundary>
      </resource-boundary>`,
    );
    const outer = provider.querySelector<ResourceBoundary>('#outer')!;
    const inner = provider.querySelector<ResourceBoundary>('#inner')!;
    await inner.updateComplete;
    expect(server.calls.map((call) => call.url).sort()).to.deep.equal(['/cards/1', '/cards/tip']);
    expect(state(inner)).to.equal('fallback');
    expect(state(outer), "the fallback's own read is the outer boundary's").to.equal('fallback');
    server.take('GET /cards/1').respond(200, { id: '1', title: 'One' });
    // Before: the tip's read, still in flight, kept the inner fallback up over loaded content.
    await until(() => expect(state(inner)).to.equal('content'));
    server.take('GET /cards/tip').respond(500, { message: 'no tip' });
    await until(() => expect(state(outer)).to.equal('error'));
    expect(state(inner), 'the tip failing is not the content failing').to.equal('content');

    // Any element in the error slot, however deep, likewise.
    const deep = inner.querySelector('[slot="error"] span')!;
    deep.dispatchEvent(new PendingTaskEvent(Promise.reject(new Error('report failed'))));
    await until(() =>
      expect(outer.errors.map((error) => (error as Error).message)).to.include('report failed'),
    );
    expect(state(inner)).to.equal('content');
  });

  it('a retry that throws at once, or returns no promise, fails or succeeds like any task', async () => {
    const boundary = await fixture<ResourceBoundary>(
      html`<resource-boundary><div></div></resource-boundary>`,
    );
    const plain = boundary.querySelector('div')!;
    const retryButton = () =>
      boundary.shadowRoot!.querySelector('[part="retry"]') as HTMLButtonElement;
    plain.dispatchEvent(
      new PendingTaskEvent(Promise.reject(new Error('chart failed')), () => {
        throw new Error('chart still broken');
      }),
    );
    await until(() => expect(state(boundary)).to.equal('error'));
    // Before: the error escaped the click handler (an uncaught page error), and the boundary was
    // left in its error state with no error to show.
    retryButton().click();
    await until(() => expect(state(boundary)).to.equal('error'));
    expect(boundary.errors.map((error) => (error as Error).message)).to.deep.equal([
      'chart still broken',
    ]);
    await boundary.updateComplete;
    expect(boundary.shadowRoot!.querySelector('[part="error"]')!.textContent).to.contain(
      'chart still broken',
    );

    const other = await fixture<ResourceBoundary>(
      html`<resource-boundary><div></div></resource-boundary>`,
    );
    other
      .querySelector('div')!
      .dispatchEvent(
        new PendingTaskEvent(Promise.reject(new Error('once')), (() => undefined) as never),
      );
    await until(() => expect(state(other)).to.equal('error'));
    (other.shadowRoot!.querySelector('[part="retry"]') as HTMLButtonElement).click();
    await until(() => expect(state(other)).to.equal('content'));
  });
});
