// One list of todos: TodoResource.getList with this element's filters. Each filter set is its own
// list in the store, but every list holds references to the same Todo entities. A todo that a
// mutation waiting in the provider's offline queue changes is marked as waiting to sync.
import { LitElement, css, html, isServer } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { ResourceController } from '../src/index.js';
import type { QueuedMutation } from '../src/managers/index.js';
import { TodoResource } from './resources.js';
import { waitsToSync } from './offline-switch.js';
import { controls } from './styles.js';
import './todo-item.js';

/** The <resource-provider> around `node`, across the shadow roots in between. */
function providerOf(node: Node): HTMLElement | null {
  for (let at: Node | null = node; at;) {
    const found = at instanceof Element ? at.closest<HTMLElement>('resource-provider') : null;
    if (found) return found;
    const root = at.getRootNode();
    at = root instanceof ShadowRoot ? root.host : null;
  }
  return null;
}

@customElement('demo-todo-list')
export class TodoList extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        background: var(--sunken);
        border-radius: 10px;
        padding: 0.7rem 0.75rem;
      }
      h3 {
        margin: 0 0 0.5rem;
        font-size: 0.8rem;
        text-transform: uppercase;
        letter-spacing: 0.06em;
        color: var(--muted);
        display: flex;
        justify-content: space-between;
      }
      .empty {
        color: var(--muted);
        font-size: 0.85rem;
        padding: 0.4rem 0.2rem;
      }
    `,
  ];

  @property() heading = '';
  @property({ type: Number }) userId: number | undefined;
  /** Undefined lists todos either way. */
  @property({ type: Boolean }) completed: boolean | undefined;

  readonly #todos = new ResourceController(this, TodoResource.getList, () => ({
    userId: this.userId,
    completed: this.completed,
  }));

  /** What waits in the provider's offline queue (its `offline-queue` attribute): marked todos. */
  @state() waiting: readonly QueuedMutation[] = [];
  #provider: HTMLElement | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    if (isServer) return;
    this.#provider = providerOf(this);
    this.#provider?.addEventListener('resource-pending-sync', this.#onSync);
    this.#readQueue();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#provider?.removeEventListener('resource-pending-sync', this.#onSync);
    this.#provider = null;
  }

  readonly #onSync = () => this.#readQueue();

  #readQueue(): void {
    const provider = this.#provider as { pendingMutations?: readonly QueuedMutation[] } | null;
    this.waiting = provider?.pendingMutations ?? [];
  }

  override render() {
    return html`
      <h3>
        <span>${this.heading}</span>
        <span class="count">${this.#todos.value?.length ?? ''}</span>
      </h3>
      ${this.#todos.render({
        pending: () => html`<p class="pending">Loading…</p>`,
        complete: (todos) =>
          todos.length === 0
            ? html`<p class="empty">Nothing here.</p>`
            : html`<ul>
                ${repeat(
                  todos,
                  (todo) => todo.id,
                  (todo) =>
                    html`<li>
                      <demo-todo-item
                        .todo=${todo}
                        .waiting=${waitsToSync(todo, this.waiting)}
                      ></demo-todo-item>
                    </li>`,
                )}
              </ul>`,
        error: (error) => html`<p class="error">${(error as Error).message}</p>`,
      })}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-todo-list': TodoList;
  }
}
