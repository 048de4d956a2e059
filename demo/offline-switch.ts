// Offline, simulated: a switch that tells the page it went offline or came back (the same window
// events the browser sends, so DevTools' own "Offline" works as well), remembered for this tab
// across reloads. Beside it, what the provider's offline queue still holds. And the mutations the
// queue may keep, by the names they are stored under.
import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import type { QueuedMutationOptions } from '../src/managers/index.js';
import { TodoResource } from './resources.js';

/** The demo's mutations that wait for the network when it is away, by their stored names. */
export const offlineMutations: Record<string, QueuedMutationOptions> = {
  'todo.create': {
    endpoint: TodoResource.getList.push.extend({ optimistic: true }),
    idempotencyHeader: 'Idempotency-Key',
  },
  'todo.update': { endpoint: TodoResource.partialUpdate },
  'todo.delete': { endpoint: TodoResource.delete },
};

const FLAG = 'resource-elements-demo:offline';

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

  @state() offline = sessionStorage.getItem(FLAG) === '1';
  @state() pending = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    this.closest('resource-provider')?.addEventListener('resource-pending-sync', this.#onCount);
    if (this.offline) dispatchEvent(new Event('offline'));
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
