// The "Live" card: changes that reached this page's store without a request of its own, pushed
// by the API's event stream (entity writes) or shared by another tab (hydrate). The button edits
// a todo the way another client would, straight through the API, not through the library.
import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { ContextConsumer } from '@lit/context';
import { controllerContext } from '../src/index.js';
import type { Controller, ControllerEvent } from '../src/index.js';
import { controls } from './styles.js';

interface Change {
  readonly at: string;
  readonly text: string;
}

const KEEP = 6;

@customElement('demo-live')
export class LiveFeed extends LitElement {
  static override styles = [
    controls,
    css`
      ol {
        list-style: none;
        margin: 0.75rem 0 0;
        padding: 0;
        font-size: 0.9rem;
      }
      li {
        display: flex;
        gap: 0.6rem;
        padding: 0.3rem 0;
        border-top: 1px solid var(--line);
      }
      time {
        color: var(--muted);
        font-family: var(--mono);
        font-variant-numeric: tabular-nums;
      }
      .quiet {
        color: var(--muted);
        margin: 0.75rem 0 0;
      }
    `,
  ];

  @state() changes: readonly Change[] = [];
  #stop: (() => void) | undefined;

  readonly #consumer = new ContextConsumer(this, {
    context: controllerContext,
    subscribe: true,
    callback: (controller) => this.#follow(controller as Controller),
  });

  #follow(controller: Controller): void {
    this.#stop?.();
    this.#stop = controller.events?.subscribe((event: ControllerEvent) => {
      if (event.type !== 'action') return;
      const { action } = event;
      let text: string | undefined;
      if (action.type === 'entities/set') text = describeWrite(action.value);
      else if (action.type === 'hydrate') text = 'changes from another tab';
      if (text) this.#add(text);
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const controller = this.#consumer.value as Controller | undefined;
    if (controller && !this.#stop) this.#follow(controller);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stop?.();
    this.#stop = undefined;
  }

  #add(text: string): void {
    const at = new Date().toLocaleTimeString([], { hour12: false });
    this.changes = [{ at, text }, ...this.changes].slice(0, KEEP);
  }

  async #editElsewhere(): Promise<void> {
    const title = `Renamed elsewhere at ${new Date().toLocaleTimeString([], { hour12: false })}`;
    await fetch('/api/todos/1', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title }),
    });
  }

  override render() {
    return html`
      <button @click=${() => this.#editElsewhere()}>Rename todo 1 from outside</button>
      ${
        this.changes.length === 0
          ? html`<p class="quiet">
              Nothing yet. Edit a todo here in another window, or press the button.
            </p>`
          : html`<ol>
              ${this.changes.map((change) => html`<li><time>${change.at}</time>${change.text}</li>`)}
            </ol>`
      }
    `;
  }
}

/** "Todo 1: “Buy milk”" for an upsert, "Todo 1 deleted" for an INVALID write (its pk). */
function describeWrite(value: unknown): string {
  if (value === null || typeof value !== 'object') return `Todo ${String(value)} deleted`;
  const { id, title } = value as { id?: unknown; title?: unknown };
  return typeof title === 'string'
    ? `Todo ${String(id)}: “${title}”`
    : `Todo ${String(id)} changed`;
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-live': LiveFeed;
  }
}
