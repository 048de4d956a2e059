// One todo with its checkbox and delete button. It changes data the way any element can: it
// consumes the Controller from the provider and runs mutations with controller.fetch.
import { LitElement, css, html, isServer, noChange } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { controllerContext, type ControllerLike } from '../src/index.js';
import { Todo, TodoResource } from './resources.js';
import { controls } from './styles.js';

@customElement('demo-todo-item')
export class TodoItem extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: flex;
        align-items: flex-start;
        gap: 0.5rem;
        padding: 0.3rem 0.2rem;
        border-radius: 6px;
        line-height: 1.35;
      }
      /* On the title's first line when it wraps. */
      input[type='checkbox'] {
        flex: none;
        margin-top: 0.1rem;
      }
      :host(:hover) {
        background: var(--surface);
      }
      .title {
        width: 100%;
        text-align: left;
        border: none;
        background: none;
        padding: 0;
        font-size: 0.9rem;
        line-height: inherit;
        /* The whole title, on as many lines as it takes in a narrow column (a word longer than
           the column breaks). */
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .title:hover:not(:disabled) {
        color: var(--accent-strong);
        text-decoration: underline;
      }
      .title.done {
        color: var(--muted);
        text-decoration: line-through;
      }
      .text {
        flex: 1;
        min-width: 0;
        display: flex;
        flex-direction: column;
        align-items: flex-start;
        gap: 0.15rem;
      }
      /* A change to this todo waits in the offline queue: it is not on the server yet. */
      .sync {
        display: inline-flex;
        align-items: center;
        gap: 0.3rem;
        font-size: 0.72rem;
        line-height: 1.2;
        padding: 0.05rem 0.45rem;
        border-radius: 999px;
        border: 1px dashed #d97706;
        background: #fffbeb;
        color: #92400e;
      }
      .sync::before {
        content: '';
        width: 0.4rem;
        height: 0.4rem;
        border-radius: 50%;
        background: #d97706;
      }
      .delete {
        opacity: 0;
      }
      :host(:hover) .delete,
      .delete:focus-visible {
        opacity: 1;
      }
    `,
  ];

  @consume({ context: controllerContext, subscribe: true })
  controller?: ControllerLike;

  @property({ attribute: false }) todo: Todo = Todo.fromJS();
  /** A change to it waits in the offline queue (the list knows): shown with a mark. */
  @property({ type: Boolean, reflect: true }) waiting = false;
  @state() busy = false;

  override render() {
    const { todo } = this;
    // Two bindings for one checkbox. The attribute is what the server writes (@lit-labs/ssr writes
    // `.checked=${false}` as checked="false", which checks it): present only when done. The
    // property is what the box shows once the user has clicked it (the attribute no longer moves
    // it then); the server writes nothing for noChange, and hydration sets it.
    return html`
      <input
        type="checkbox"
        aria-label="Done"
        ?checked=${todo.completed}
        .checked=${isServer ? noChange : todo.completed}
        @change=${this.#toggle}
      />
      <div class="text">
        <button
          class="title ${todo.completed ? 'done' : ''}"
          title="Show details"
          @click=${this.#select}
        >
          ${todo.title}
        </button>
        ${
          this.waiting
            ? html`<span class="sync" title="In the offline queue: sent when the network is back"
                >waiting to sync</span
              >`
            : ''
        }
      </div>
      <button
        class="quiet delete"
        aria-label="Delete ${todo.title}"
        title="Delete"
        ?disabled=${this.busy}
        @click=${this.#delete}
      >
        ✕
      </button>
    `;
  }

  readonly #select = () => {
    this.dispatchEvent(
      new CustomEvent('todo-select', {
        detail: { id: this.todo.id },
        bubbles: true,
        composed: true,
      }),
    );
  };

  readonly #toggle = async (event: Event) => {
    const controller = this.controller;
    if (!controller) return;
    const { id, completed } = this.todo;
    // The checkbox already flipped itself; from here the store decides what it shows.
    (event.target as HTMLInputElement).checked = completed;
    try {
      // Optimistic: every list shows the new state before the server answers, the todo moves from
      // Open to Done (or back) at once, and all of it goes back by itself if the request fails.
      // One PATCH: the lists move the todo themselves, nothing is fetched again.
      await controller.fetch(TodoResource.move, { id }, { completed: !completed });
    } catch (error) {
      console.warn('Toggling the todo failed; it was rolled back.', error);
    }
  };

  readonly #delete = async () => {
    const controller = this.controller;
    if (!controller) return;
    this.busy = true;
    try {
      // The schema is Invalidate(Todo): the todo leaves every list at once, and a view that
      // requires it (the detail) fetches it again.
      await controller.fetch(TodoResource.delete, { id: this.todo.id });
    } catch (error) {
      console.warn('Deleting the todo failed.', error);
    } finally {
      this.busy = false;
    }
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-todo-item': TodoItem;
  }
}
