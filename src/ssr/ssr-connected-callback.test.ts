// Server rendering when the app tells @lit-labs/ssr to call connectedCallback on the server
// (LitElementRenderer.renderOptions, Lit's way to run controllers there): reads still render from
// the store, the provider's browser-only connectedCallback is skipped, and nothing subscribes,
// fetches or starts a timer. Its own file: render options are global to the process.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { LitElementRenderer, render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { LitElement, html } from 'lit';
import { Entity, ResourceController, createResource } from '../index.js';
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
});
