// Offline, simulated: a switch that tells the page it went offline or came back (the same window
// events the browser sends, so DevTools' own "Offline" works as well), remembered for this tab
// across reloads. Beside it, what the provider's offline queue still holds. And the mutations the
// queue may keep, by the names they are stored under, and which todo a waiting one changes.
import { LitElement, css, html, isServer } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import type { QueuedMutation, QueuedMutationOptions } from '../src/managers/index.js';
import { TodoCreate, TodoResource, type Todo } from './resources.js';

/** The demo's mutations that wait for the network when it is away, by their stored names. */
export const offlineMutations: Record<string, QueuedMutationOptions> = {
  'todo.create': { endpoint: TodoCreate.push, idempotencyHeader: 'Idempotency-Key' },
  'todo.create-first': { endpoint: TodoCreate.unshift, idempotencyHeader: 'Idempotency-Key' },
  'todo.update': { endpoint: TodoResource.partialUpdate },
  'todo.move': { endpoint: TodoResource.move },
  'todo.delete': { endpoint: TodoResource.delete },
};

/** The names above of the creates: the server gives the new todo its id. */
const CREATES = new Set(['todo.create', 'todo.create-first']);

/**
 * Whether one of the mutations waiting in the offline queue (the provider's `pendingMutations`)
 * changes `todo`. An update, move or delete names the todo in its params; a create has no id to
 * name until the server answers, and its todo is the one shown with no id yet (the optimistic
 * create's) whose fields are the create's body.
 */
export function waitsToSync(todo: Todo, waiting: readonly QueuedMutation[]): boolean {
  return waiting.some(({ name, args }) => {
    if (CREATES.has(name)) {
      const body = args[args.length - 1] as Partial<Todo> | undefined;
      return todo.id === '' && body?.title === todo.title && Number(body.userId) === todo.userId;
    }
    const params = args[0] as { id?: unknown } | undefined;
    return params?.id !== undefined && String(params.id) === todo.id;
  });
}

const FLAG = 'resource-elements-demo:offline';

/**
 * Whether the page is offline (the browser's word, or this switch's), for elements that act on
 * it: the form does not wait for a create that is queued. `change` fires when it flips.
 */
export const network = new (class extends EventTarget {
  // A server render (demo/ssr) is online, with no window to listen to.
  offline = !isServer && (!navigator.onLine || sessionStorage.getItem(FLAG) === '1');
})();
if (!isServer) {
  for (const type of ['online', 'offline']) {
    addEventListener(type, () => {
      network.offline = type === 'offline';
      network.dispatchEvent(new Event('change'));
    });
  }
}

@customElement('offline-switch')
export class OfflineSwitch extends LitElement {
  static override styles = css`
    :host {
      display: inline-flex;
      gap: 0.5rem;
      align-items: center;
      font-size: 0.85rem;
    }
    button {
      font: inherit;
      padding: 0.25rem 0.7rem;
      border-radius: 999px;
      border: 1px solid var(--line, #ccc);
      background: var(--surface, #fff);
      cursor: pointer;
    }
    .count {
      color: var(--muted, #666);
    }
  `;

  @state() offline = !isServer && sessionStorage.getItem(FLAG) === '1';
  @state() pending = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    this.closest('resource-provider')?.addEventListener('resource-pending-sync', this.#onCount);
    // Told once the provider listens (this element may upgrade before it is defined).
    if (this.offline) {
      void customElements
        .whenDefined('resource-provider')
        .then(() => this.offline && dispatchEvent(new Event('offline')));
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.closest('resource-provider')?.removeEventListener('resource-pending-sync', this.#onCount);
  }

  readonly #onCount = (event: Event) => {
    this.pending = (event as CustomEvent<{ count: number }>).detail.count;
  };

  readonly #toggle = () => {
    this.offline = !this.offline;
    sessionStorage.setItem(FLAG, this.offline ? '1' : '0');
    dispatchEvent(new Event(this.offline ? 'offline' : 'online'));
  };

  override render() {
    return html`<button @click=${this.#toggle} aria-pressed=${this.offline}>
        ${this.offline ? 'Go online' : 'Work offline'}
      </button>
      <span class="count" role="status"
        >${this.pending ? `${this.pending} change${this.pending === 1 ? '' : 's'} to sync` : ''}</span
      >`;
  }
}
