// <resource-provider>: provides its Controller to any context-protocol consumer, nearest wins,
// has no layout box, wires window events while connected, and tolerates a second definition.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { ContextConsumer, consume } from '@lit/context';
import './define-provider.js';
import { ResourceProvider } from './resource-provider.js';
import { controllerContext } from './controller-context.js';
import type { ControllerLike } from '../core/index.js';
import { Controller } from '../core/index.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';

class DecoratedConsumer extends LitElement {
  @consume({ context: controllerContext, subscribe: true })
  controller?: ControllerLike;
}
customElements.define('decorated-consumer', DecoratedConsumer);

/** A plain custom element that hosts reactive controllers by hand. */
class PlainConsumer extends HTMLElement implements ReactiveControllerHost {
  readonly #controllers = new Set<ReactiveController>();
  updates = 0;
  readonly consumer = new ContextConsumer(this, { context: controllerContext, subscribe: true });
  addController(controller: ReactiveController): void {
    this.#controllers.add(controller);
  }
  removeController(controller: ReactiveController): void {
    this.#controllers.delete(controller);
  }
  requestUpdate(): void {
    this.updates++;
  }
  get updateComplete(): Promise<boolean> {
    return Promise.resolve(true);
  }
  connectedCallback(): void {
    for (const controller of this.#controllers) controller.hostConnected?.();
  }
  disconnectedCallback(): void {
    for (const controller of this.#controllers) controller.hostDisconnected?.();
  }
}
customElements.define('plain-consumer', PlainConsumer);

/** A real Controller whose fetch never reaches the network. */
function newController(): Controller {
  return new Controller({ fetch: new FakeServer().fetch });
}

function provider(controller: Controller): ResourceProvider {
  const element = document.createElement('resource-provider');
  element.controller = controller;
  return element;
}

describe('<resource-provider>', () => {
  it('uses a registered symbol as the context key, so two copies of the module match', () => {
    expect(controllerContext).to.equal(Symbol.for('resource-elements.controller'));
  });

  it('is defined once; loading the defining module again does not throw', async () => {
    expect(customElements.get('resource-provider')).to.equal(ResourceProvider);
    const copy = new URL('./define-provider.ts?copy=2', import.meta.url).href;
    await import(copy);
    expect(customElements.get('resource-provider')).to.equal(ResourceProvider);
  });

  it('provides its Controller to @consume in a Lit element and to a plain ContextConsumer', async () => {
    const controller = newController();
    const element = provider(controller);
    element.innerHTML =
      '<decorated-consumer></decorated-consumer><plain-consumer></plain-consumer>';
    await fixture(html`<div>${element}</div>`);
    expect(element.querySelector('decorated-consumer')!.controller).to.equal(controller);
    expect(element.querySelector('plain-consumer')!.consumer.value).to.equal(controller);
  });

  it('reaches consumers inside shadow roots', async () => {
    const controller = newController();
    const element = provider(controller);
    const host = document.createElement('div');
    host.attachShadow({ mode: 'open' }).innerHTML = '<decorated-consumer></decorated-consumer>';
    element.append(host);
    await fixture(html`<div>${element}</div>`);
    const consumer = host.shadowRoot!.querySelector('decorated-consumer')!;
    expect(consumer.controller).to.equal(controller);
  });

  it('lets the nearest provider win', async () => {
    const outer = provider(newController());
    const innerController = newController();
    const inner = provider(innerController);
    inner.innerHTML = '<decorated-consumer></decorated-consumer>';
    outer.append(inner);
    outer.insertAdjacentHTML('beforeend', '<decorated-consumer id="outside"></decorated-consumer>');
    await fixture(html`<div>${outer}</div>`);
    expect(inner.querySelector('decorated-consumer')!.controller).to.equal(innerController);
    expect(outer.querySelector<DecoratedConsumer>('#outside')!.controller).to.equal(
      outer.controller,
    );
  });

  it('hands subscribed consumers a Controller assigned later', async () => {
    const element = provider(newController());
    element.innerHTML = '<decorated-consumer></decorated-consumer>';
    await fixture(html`<div>${element}</div>`);
    const replacement = newController();
    element.controller = replacement;
    expect(element.querySelector('decorated-consumer')!.controller).to.equal(replacement);
  });

  it("answers a request that says `multiple` (FAST's) as one that subscribes", async () => {
    const element = provider(newController());
    element.innerHTML = '<span></span>';
    await fixture(html`<div>${element}</div>`);
    const heard: unknown[] = [];
    // The shape FAST's Context.request dispatches: `multiple` where the protocol says `subscribe`.
    const request = Object.assign(new Event('context-request', { bubbles: true, composed: true }), {
      context: controllerContext,
      callback: (value: unknown) => heard.push(value),
      multiple: true,
    });
    element.querySelector('span')!.dispatchEvent(request);
    expect(heard).to.deep.equal([element.controller]);
    const replacement = newController();
    element.controller = replacement;
    expect(heard).to.have.length(2);
    expect(heard[1]).to.equal(replacement);
  });

  it('renders its children unchanged, without a layout box of its own', async () => {
    const element = provider(newController());
    element.innerHTML = '<p style="margin:0">child</p>';
    const wrapper = await fixture<HTMLDivElement>(
      html`<div style="display:flex;gap:7px">${element}<span>sibling</span></div>`,
    );
    expect(getComputedStyle(element).display).to.equal('contents');
    // The paragraph is a flex item of the wrapper: the provider is not in between.
    const p = element.querySelector('p')!;
    const span = wrapper.querySelector('span')!;
    expect(p.getBoundingClientRect().top).to.equal(span.getBoundingClientRect().top);
    expect(p.getBoundingClientRect().height).to.be.greaterThan(0);
    // It has no shadow root: the children are its light DOM, laid out by its parent.
    expect(element.shadowRoot).to.equal(null);
  });

  it('keeps a display the page gave it in its style attribute', async () => {
    const element = provider(newController());
    element.setAttribute('style', 'display: block; color: red');
    element.innerHTML = '<p>child</p>';
    await fixture(html`<div>${element}</div>`);
    expect(getComputedStyle(element).display).to.equal('block');
    expect(element.style.color).to.equal('red');
  });

  it('wires online, offline and visibilitychange to the Controller while connected', async () => {
    const controller = newController();
    const calls = { online: 0, offline: 0, focus: 0 };
    controller.events.subscribe((event) => {
      if (event.type === 'online' || event.type === 'offline' || event.type === 'focus') {
        calls[event.type]++;
      }
    });
    const element = provider(controller);
    await fixture(html`<div>${element}</div>`);
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('offline'));
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(calls).to.deep.include({ online: 1, offline: 1, focus: 1 });

    element.remove();
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('offline'));
    document.dispatchEvent(new Event('visibilitychange'));
    delete (document as { visibilityState?: unknown }).visibilityState;
    expect(calls).to.deep.include({ online: 1, offline: 1, focus: 1 });
  });

  it('makes its own Controller on first use, once', async () => {
    const element = document.createElement('resource-provider');
    element.innerHTML = '<decorated-consumer></decorated-consumer>';
    await fixture(html`<div>${element}</div>`);
    const made = element.controller;
    expect(made).to.be.instanceOf(Controller);
    expect(element.controller).to.equal(made);
    expect(element.querySelector('decorated-consumer')!.controller).to.equal(made);
  });

  it('keeps a Controller assigned before the element upgraded', async () => {
    const tag = 'pre-upgrade-provider';
    const element = document.createElement(tag) as ResourceProvider;
    const controller = newController();
    element.controller = controller;
    await fixture(html`<div>${element}</div>`);
    customElements.define(tag, class extends ResourceProvider {});
    expect(element.controller).to.equal(controller);
    element.innerHTML = '<decorated-consumer></decorated-consumer>';
    expect(element.querySelector('decorated-consumer')!.controller).to.equal(controller);
  });
});

declare global {
  interface HTMLElementTagNameMap {
    'decorated-consumer': DecoratedConsumer;
    'plain-consumer': PlainConsumer;
  }
}
