// <resource-provider>'s activity: fetching/mutating counts, offline, the resource-activity event
// and the CSS custom states :state(fetching), :state(mutating), :state(offline).
import { expect, fixture, html } from '@open-wc/testing';
import './define-provider.js';
import type { ResourceActivity, ResourceProvider } from './resource-provider.js';
import { until } from './test-utils/reader.js';
import { Controller } from '../core/controller/controller.js';
import { FakeClock } from '../core/controller/test-utils/fake-clock.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';
import { createResource } from '../core/rest/create-resource.js';
import { Entity } from '../core/schema/entity.js';

class Item extends Entity {
  id = '';
  pk() {
    return this.id;
  }
  static key = 'ActivityItem';
}
const ItemResource = createResource({ path: '/items/:id', schema: Item });

let made: Controller[] = [];

function setup() {
  const server = new FakeServer();
  const clock = new FakeClock();
  const controller = new Controller({ fetch: server.fetch, now: clock.now, timers: clock.timers });
  made.push(controller);
  return { server, clock, controller };
}

async function mount(controller: Controller): Promise<ResourceProvider> {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  provider.innerHTML = '<div class="bar"></div>';
  await fixture(
    html`<div>
      <style>
        .bar {
          opacity: 0;
        }
        resource-provider:state(fetching) .bar {
          opacity: 1;
        }
      </style>
      ${provider}
    </div>`,
  );
  return provider;
}

const states = (provider: Element) =>
  ['fetching', 'mutating', 'offline'].filter((name) => provider.matches(`:state(${name})`));

describe('<resource-provider> activity', () => {
  afterEach(() => {
    for (const controller of made) controller.dispose();
    made = [];
    window.dispatchEvent(new Event('online'));
  });

  it('matches :state(fetching) while a read is in flight, and a CSS rule shows the bar', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller);
    const bar = provider.querySelector('.bar')!;
    expect(states(provider)).to.deep.equal([]);
    expect(getComputedStyle(bar).opacity).to.equal('0');
    const read = controller.fetch(ItemResource.get, { id: '1' });
    expect(provider.matches(':state(fetching)')).to.equal(true);
    expect(provider.fetching).to.equal(1);
    expect(getComputedStyle(bar).opacity).to.equal('1');
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, { id: '1' });
    await read;
    expect(provider.matches(':state(fetching)')).to.equal(false);
    expect(provider.fetching).to.equal(0);
    expect(getComputedStyle(bar).opacity).to.equal('0');
  });

  it('counts reads and mutations apart; :state(mutating) while a mutation runs', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller);
    const reads = [
      controller.fetch(ItemResource.get, { id: '1' }),
      controller.fetch(ItemResource.get, { id: '2' }),
      controller.fetch(ItemResource.get, { id: '2' }), // shares the request of the second
    ];
    const update = controller.fetch(ItemResource.update, { id: '1' }, {});
    expect({ fetching: provider.fetching, mutating: provider.mutating }).to.deep.equal({
      fetching: 2,
      mutating: 1,
    });
    expect(states(provider)).to.deep.equal(['fetching', 'mutating']);
    await until(() => expect(server.waiting).to.have.length(3));
    server.take('PUT /items/1').respond(200, { id: '1' });
    await update;
    expect(states(provider)).to.deep.equal(['fetching']);
    for (const request of [...server.waiting]) request.respond(200, { id: request.url.slice(-1) });
    await Promise.all(reads);
    expect(states(provider)).to.deep.equal([]);
  });

  it('a read waiting between attempts is still fetching (once)', async () => {
    const { server, clock, controller } = setup();
    const provider = await mount(controller);
    const read = controller.fetch(ItemResource.get, { id: '1' });
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(503);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(provider.fetching).to.equal(1);
    clock.advance(2_000);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, { id: '1' });
    await read;
    expect(provider.fetching).to.equal(0);
  });

  it(':state(offline) follows the window, with a resource-activity event per change', async () => {
    const { controller } = setup();
    const provider = await mount(controller);
    const events: ResourceActivity[] = [];
    provider.addEventListener('resource-activity', (event) => events.push(event.detail));
    window.dispatchEvent(new Event('offline'));
    expect(provider.offline).to.equal(true);
    expect(states(provider)).to.deep.equal(['offline']);
    window.dispatchEvent(new Event('online'));
    expect(states(provider)).to.deep.equal([]);
    expect(events).to.deep.equal([
      { fetching: 0, mutating: 0, offline: true },
      { fetching: 0, mutating: 0, offline: false },
    ]);
  });

  it("offline is the Controller's own state: one told offline() before the provider shows it", async () => {
    const { controller } = setup();
    controller.offline();
    const provider = await mount(controller);
    expect(provider.offline).to.equal(true);
    expect(states(provider)).to.deep.equal(['offline']);
    controller.online();
    expect(provider.offline).to.equal(false);
    expect(states(provider)).to.deep.equal([]);
  });

  it('without CustomStateSet: counts and events still work, nothing throws', async () => {
    const original = HTMLElement.prototype.attachInternals;
    HTMLElement.prototype.attachInternals = function () {
      return {} as ElementInternals; // an engine with ElementInternals but no `states`
    };
    let provider: ResourceProvider;
    try {
      provider = await mount(setup().controller);
    } finally {
      HTMLElement.prototype.attachInternals = original;
    }
    const events: ResourceActivity[] = [];
    provider.addEventListener('resource-activity', (event) => events.push(event.detail));
    void provider.controller.fetch(ItemResource.get, { id: '1' }).catch(() => {});
    expect(provider.fetching).to.equal(1);
    expect(events).to.deep.equal([{ fetching: 1, mutating: 0, offline: false }]);
    expect(provider.matches(':state(fetching)')).to.equal(false);
  });

  it('an engine that knows only dashed states (Chromium before 125) gets :--fetching', async () => {
    const original = HTMLElement.prototype.attachInternals;
    const added: string[] = [];
    const states = {
      add(name: string) {
        if (!name.startsWith('--')) throw new DOMException('not a dashed ident', 'SyntaxError');
        added.push(name);
      },
      delete(name: string) {
        if (!name.startsWith('--')) throw new DOMException('not a dashed ident', 'SyntaxError');
        if (added.includes(name)) added.splice(added.indexOf(name), 1);
      },
    };
    HTMLElement.prototype.attachInternals = function () {
      return { states } as unknown as ElementInternals;
    };
    let provider: ResourceProvider;
    try {
      provider = await mount(setup().controller);
    } finally {
      HTMLElement.prototype.attachInternals = original;
    }
    const update = provider.controller.fetch(ItemResource.update, { id: '1' }, {});
    void update.catch(() => {});
    expect(added).to.deep.equal(['--mutating']);
  });

  it('follows a Controller assigned later, and nothing after it leaves the page', async () => {
    const first = setup();
    const provider = await mount(first.controller);
    const second = setup();
    provider.controller = second.controller;
    void first.controller.fetch(ItemResource.get, { id: '1' }).catch(() => {});
    expect(provider.fetching).to.equal(0);
    void second.controller.fetch(ItemResource.get, { id: '1' }).catch(() => {});
    expect(provider.fetching).to.equal(1);
    provider.remove();
    void second.controller.fetch(ItemResource.get, { id: '2' }).catch(() => {});
    expect(provider.fetching).to.equal(1);
  });
});
