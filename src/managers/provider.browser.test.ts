// `<resource-provider events sync-tabs persist>` in Chromium: the attributes attach the managers
// (a real EventSource on the demo API, a real BroadcastChannel, IndexedDB), leaving detaches them,
// and 1,000 connect/disconnect cycles leave no listener, channel, timer or open connection.
import { expect, fixture, html } from '@open-wc/testing';
import '../index.js';
import { Controller, Entity } from '../core/index.js';
import type { Timers } from '../core/index.js';
import type { ResourceProvider } from '../lit/index.js';
import { providerHooks } from '../provider/provider-hooks.js';
import { eventually } from '../lit/test-utils/reader.js';
import { registerProviderManagers } from './provider.js';
import { TabSyncManager } from './tab-sync.js';

/** Waits until `check` (which may await) passes, or throws its last failure after 3 s. */
const until = (check: () => unknown) => eventually(check, 3000);

class Todo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'Todo';
}

/** Real constructors and timers that count what is open. */
function counting() {
  const counts = {
    sources: 0,
    channels: 0,
    timers: 0,
    urls: [] as string[],
    names: [] as string[],
  };
  class CountingSource extends EventSource {
    #open = true;
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      counts.sources++;
      counts.urls.push(String(url));
    }
    override close(): void {
      if (this.#open) counts.sources--;
      this.#open = false;
      super.close();
    }
  }
  class CountingChannel extends BroadcastChannel {
    #open = true;
    constructor(name: string) {
      super(name);
      counts.channels++;
      counts.names.push(name);
    }
    override close(): void {
      if (this.#open) counts.channels--;
      this.#open = false;
      super.close();
    }
  }
  const pending = new Set<number>();
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      const handle = window.setTimeout(() => {
        pending.delete(handle);
        callback();
      }, ms);
      pending.add(handle);
      counts.timers = pending.size;
      return handle;
    },
    clearTimeout: (handle) => {
      window.clearTimeout(handle as number);
      pending.delete(handle as number);
      counts.timers = pending.size;
    },
  };
  return {
    counts,
    pending,
    EventSource: CountingSource as typeof EventSource,
    BroadcastChannel: CountingChannel as typeof BroadcastChannel,
    timers,
  };
}

/** Window and document listeners added and not removed, by event type. */
function listenerCount() {
  const live = new Map<string, number>();
  const targets = [window, document] as EventTarget[];
  const originals = targets.map((target) => ({
    target,
    add: target.addEventListener,
    remove: target.removeEventListener,
  }));
  for (const { target, add, remove } of originals) {
    target.addEventListener = function (type: string, ...rest: unknown[]) {
      live.set(type, (live.get(type) ?? 0) + 1);
      return (add as (...args: unknown[]) => void).call(this, type, ...rest);
    };
    target.removeEventListener = function (type: string, ...rest: unknown[]) {
      live.set(type, (live.get(type) ?? 0) - 1);
      return (remove as (...args: unknown[]) => void).call(this, type, ...rest);
    };
  }
  return {
    live,
    restore: () =>
      originals.forEach(({ target, add, remove }) => {
        target.addEventListener = add;
        target.removeEventListener = remove;
      }),
  };
}

async function openStreams(): Promise<number> {
  const response = await fetch('/api/__events');
  return ((await response.json()) as { open: number }).open;
}

describe('<resource-provider> manager attributes', () => {
  before(() => {
    // A page that a service worker controls sends its EventSource through the worker's fetch,
    // which Firefox does not cancel on close(): the API would count a closed stream as open.
    // test/browser/msw.ts unregisters its worker after each file that uses it.
    expect(
      navigator.serviceWorker.controller,
      'a service worker left by an earlier test file controls this page',
    ).to.equal(null);
  });

  afterEach(() => {
    delete providerHooks.managers;
  });

  it('without registerProviderManagers(), in production: no console error; the provider works', async () => {
    const errors: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const provider = await fixture<ResourceProvider>(
        html`<resource-provider sync-tabs persist="v1"></resource-provider>`,
      );
      expect(provider.controller).to.be.instanceOf(Controller);
      await new Promise((resolve) => setTimeout(resolve));
    } finally {
      console.error = original;
    }
    // Unbundled in the browser (no process.env) is a production build, where a check of the
    // programmer's own misuse is left out (design.md, Size).
    expect(errors).to.deep.equal([]);
  });

  it('without registerProviderManagers(), in development: one console error naming the call', async () => {
    // A page of its own, where process.env says development before any module loads.
    const frame = document.createElement('iframe');
    const loaded = new Promise((resolve) =>
      frame.addEventListener('load', resolve, { once: true }),
    );
    frame.srcdoc = `<script>
      window.process = { env: { NODE_ENV: 'development' } };
      window.errors = [];
      console.error = (...args) => window.errors.push(String(args[0]));
    </script>
    <resource-provider sync-tabs persist="v1"></resource-provider>
    <script type="module">import '/src/index.ts';</script>`;
    document.body.append(frame);
    try {
      await loaded;
      const win = frame.contentWindow as Window & { errors?: string[] };
      await until(() => expect(win.errors).to.have.length(1));
      expect(win.errors![0]).to.equal(
        "<resource-provider> needs registerProviderManagers() from 'resource-elements/managers' for events, sync-tabs, persist and offline-queue, called before the provider connects.",
      );
      const provider = frame.contentDocument!.querySelector(
        'resource-provider',
      ) as ResourceProvider;
      expect(provider.controller.constructor.name).to.equal('Controller');
    } finally {
      frame.remove();
    }
  });

  it('a registration later in the same task still reaches a provider that connected before it', async () => {
    const count = counting();
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    const provider = document.createElement('resource-provider');
    provider.setAttribute('sync-tabs', 'late-registration');
    host.append(provider); // connected, nothing registered yet
    registerProviderManagers({ BroadcastChannel: count.BroadcastChannel });
    await Promise.resolve();
    expect(count.counts.names).to.deep.equal(['late-registration']);
    expect(count.counts.channels).to.equal(1);
    provider.remove();
    expect(count.counts.channels).to.equal(0);
  });

  it('events, sync-tabs and persist attach their managers while connected and detach on leaving', async () => {
    const count = counting();
    registerProviderManagers({
      entities: { Todo },
      EventSource: count.EventSource,
      BroadcastChannel: count.BroadcastChannel,
      push: { timers: count.timers },
      persist: { timers: count.timers, name: 'provider-test' },
    });
    const provider = await fixture<ResourceProvider>(
      html`<resource-provider
        events="/api/events"
        sync-tabs="provider-test"
        persist="v1"
      ></resource-provider>`,
    );
    const controller = provider.controller;
    expect(count.counts.sources).to.equal(1);
    expect(count.counts.urls).to.deep.equal(['/api/events']);
    expect(count.counts.channels).to.equal(1);
    expect(count.counts.names).to.deep.equal(['provider-test']);
    await until(async () => expect(await openStreams()).to.equal(1));

    // The stream writes into the provider's store: an edit made through the API lands there.
    await fetch('/api/todos/1', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'pushed to the provider' }),
    });
    await until(() =>
      expect(
        (controller.getState().entities.Todo?.['1'] as unknown as Todo | undefined)?.title,
      ).to.equal('pushed to the provider'),
    );

    const listeners = controller.events.size;
    provider.remove();
    expect(count.counts.sources).to.equal(0);
    expect(count.counts.channels).to.equal(0);
    expect(controller.events.size).to.be.below(listeners);
    await until(async () => expect(await openStreams()).to.equal(0));
    await fetch('/api/__reset', { method: 'POST' });
  });

  it('two providers that persist on one page: each its own record by id or persist-name; two without are refused', async () => {
    const count = counting();
    registerProviderManagers({
      persist: { timers: count.timers, name: 'two-stores', throttle: 10 },
    });
    const errors: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    let host: HTMLElement;
    try {
      host = await fixture<HTMLElement>(
        html`<div>
          <resource-provider id="cart" persist="v1"></resource-provider>
          <resource-provider persist-name="wishlist" persist="v1"></resource-provider>
        </div>`,
      );
      const [cart, wishlist] = [...host.querySelectorAll('resource-provider')].map(
        (provider) => provider.controller,
      );
      cart!.set(Todo, { id: '1', title: 'in the cart' });
      wishlist!.set(Todo, { id: '1', title: 'on the wishlist' });
      // Saved in the page's IndexedDB, one record each.
      const saved = async (name: string) => {
        const { indexedDbStorage } = await import('./storage.js');
        const record = (await indexedDbStorage().get(name)) as
          { state: { entities: { Todo?: Record<string, { title: string }> } } } | undefined;
        return record?.state.entities.Todo?.['1']?.title;
      };
      await until(async () => expect(await saved('two-stores:cart')).to.equal('in the cart'));
      await until(async () =>
        expect(await saved('two-stores:wishlist')).to.equal('on the wishlist'),
      );
      expect(errors).to.deep.equal([]);

      // Two with neither: before, both wrote the one record, and each restored the other's store.
      const plain = await fixture<HTMLElement>(
        html`<div>
          <resource-provider persist="v1"></resource-provider>
          <resource-provider persist="v1"></resource-provider>
        </div>`,
      );
      expect(errors).to.have.length(1);
      expect(String(errors[0]![0])).to.contain(
        'PersistManager "two-stores": another store on this page is saved under that name',
      );
      plain.remove();
    } finally {
      console.error = original;
    }
    host!.remove();
    const { indexedDbStorage } = await import('./storage.js');
    for (const name of ['two-stores', 'two-stores:cart', 'two-stores:wishlist']) {
      await indexedDbStorage().delete(name);
    }
  });

  it('a Controller assigned to a connected provider (a new one at logout) takes its managers over', async () => {
    const count = counting();
    registerProviderManagers({ entities: { Todo }, BroadcastChannel: count.BroadcastChannel });
    const provider = await fixture<ResourceProvider>(
      html`<resource-provider sync-tabs="swap-test"></resource-provider>`,
    );
    const first = provider.controller;
    const next = new Controller();
    provider.controller = next;
    expect(count.counts.channels, 'one channel, not one per Controller').to.equal(1);
    const otherTab = new Controller({ managers: [new TabSyncManager({ channel: 'swap-test' })] });
    try {
      otherTab.set(Todo, { id: '1', title: 'from another tab' });
      // What the descendants now read is what the channel writes into.
      await until(() =>
        expect(
          (next.getState().entities.Todo?.['1'] as unknown as Todo | undefined)?.title,
        ).to.equal('from another tab'),
      );
      expect(first.getState().entities.Todo, 'the replaced Controller hears no more').to.equal(
        undefined,
      );
    } finally {
      otherTab.dispose();
    }
    provider.remove();
    expect(count.counts.channels).to.equal(0);
  });

  it('no leak: 1,000 connect/disconnect cycles with all three managers', async function () {
    this.timeout(60_000);
    const count = counting();
    registerProviderManagers({
      entities: { Todo },
      EventSource: count.EventSource,
      BroadcastChannel: count.BroadcastChannel,
      push: { timers: count.timers },
      persist: { timers: count.timers, name: 'leak-test', throttle: 50 },
    });
    const provider = document.createElement('resource-provider');
    provider.setAttribute('events', '/api/events');
    provider.setAttribute('sync-tabs', 'leak-test');
    provider.setAttribute('persist', 'leak-v1');
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    const listeners = listenerCount();
    let controller!: Controller;
    let baseline: number;
    try {
      host.append(provider);
      controller = provider.controller;
      provider.remove();
      baseline = controller.events.size;
      for (let cycle = 0; cycle < 1000; cycle++) {
        host.append(provider);
        // Something for persistence to write, and for the other managers to see.
        controller.set(Todo, { id: String(cycle % 10), title: `cycle ${cycle}` });
        provider.remove();
      }
      expect(count.counts.sources, 'open EventSources').to.equal(0);
      expect(count.counts.channels, 'open BroadcastChannels').to.equal(0);
      expect(count.counts.timers, 'pending timers').to.equal(0);
      expect(controller.events.size, 'controller event listeners').to.equal(baseline);
      const live = [...listeners.live].filter(([, n]) => n !== 0);
      expect(live, 'window and document listeners').to.deep.equal([]);
      expect(count.counts.urls).to.have.length(1001);
      await until(async () => expect(await openStreams(), 'streams open at the API').to.equal(0));
    } finally {
      listeners.restore();
    }
  });
});
