// Server rendering when the app tells @lit-labs/ssr to call connectedCallback on the server
// (LitElementRenderer.renderOptions, Lit's way to run controllers there): reads still render from
// the store, the provider's browser-only connectedCallback is skipped, and nothing subscribes,
// fetches or starts a timer. Its own file: render options are global to the process.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { LitElementRenderer, render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { LitElement, html } from 'lit';
import { Entity, MutationController, ResourceController, createResource } from '../index.js';
import { InfiniteController } from '../infinite/index.js';
import { createServerController, prefetch, stateScript } from './index.js';

LitElementRenderer.renderOptions.push(() => ({ connectedCallback: true }));

class CcTodo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'CcTodo';
}
const TodoResource = createResource({ path: '/api/todos/:id', schema: CcTodo });

/** How often the server called CcTodos' connectedCallback: the option took effect. */
let connectedCalls = 0;

class CcTodos extends LitElement {
  readonly #todos = new ResourceController(this, TodoResource.getList);
  readonly #one = new ResourceController(this, TodoResource.get, () => ({ id: '9' }));
  override connectedCallback() {
    super.connectedCallback();
    connectedCalls++;
  }
  override render() {
    return html`${this.#todos.render({
      pending: () => html`<p>Loading…</p>`,
      complete: (todos) =>
        html`<ul>
          ${todos.map((todo) => html`<li>${todo.title}</li>`)}
        </ul>`,
    })}${this.#one.render({ pending: () => html`<p>Loading one…</p>` })}`;
  }
}
customElements.define('cc-todos', CcTodos);

describe('server rendering with connectedCallback called on the server', () => {
  it('renders prefetched data and pending for the rest, with no subscription, request or timer', async () => {
    const calls: string[] = [];
    const controller = createServerController({
      origin: 'http://api.test',
      fetch: async (input) => {
        calls.push(String(input));
        return new Response(JSON.stringify([{ id: '1', title: 'Rendered' }]), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    await prefetch(controller, TodoResource.getList);
    const page = await collectResult(
      render(
        html`<resource-provider .controller=${controller}
          >${stateScript(controller)}<cc-todos></cc-todos
        ></resource-provider>`,
      ),
    );
    const shown = page.replace(/<!--[^]*?-->/g, '');
    assert.equal(connectedCalls, 1);
    assert.match(shown, /<ul>\s*<li>Rendered<\/li>\s*<\/ul>/);
    assert.ok(shown.includes('<p>Loading one…</p>'));
    assert.deepEqual(calls, ['http://api.test/api/todos']);
    assert.deepEqual(controller.stats(), {
      subscriptions: 0,
      timers: 0,
      listeners: 0,
      inFlight: 0,
    });
  });

  it('renders an InfiniteController (and a MutationController) from the store', async () => {
    // On the server, reading `status` runs the read's update; InfiniteController's hostUpdate
    // reads `status` itself once its provider answered (connectedCallback asked for it).
    const PagedResource = createResource({
      path: '/api/paged/:id',
      schema: CcTodo,
      paginationField: 'page',
    });
    class CcPaged extends LitElement {
      readonly list = new InfiniteController(this, PagedResource.getList, () => ({}), {
        nextPage: (_last, pages) => pages + 1,
      });
      readonly save = new MutationController(this, PagedResource.update);
      override render() {
        return html`${this.list.render({
          pending: () => html`<p>Loading…</p>`,
          complete: (todos) => html`<p>${todos.map((todo) => todo.title).join(', ')}</p>`,
        })}`;
      }
    }
    customElements.define('cc-paged', CcPaged);
    const controller = createServerController({
      origin: 'http://api.test',
      fetch: async () =>
        new Response(JSON.stringify([{ id: '1', title: 'First page' }]), {
          headers: { 'content-type': 'application/json' },
        }),
    });
    await prefetch(controller, PagedResource.getList);
    const page = await collectResult(
      render(
        html`<resource-provider .controller=${controller}
          ><cc-paged></cc-paged
        ></resource-provider>`,
      ),
    );
    assert.ok(page.replace(/<!--[^]*?-->/g, '').includes('<p>First page</p>'));
    assert.deepEqual(controller.stats(), {
      subscriptions: 0,
      timers: 0,
      listeners: 0,
      inFlight: 0,
    });
  });
});
