// The todo last clicked, read with TodoResource.get. Deleting it marks the entity INVALID, so this
// view goes back to pending and asks the server again, which then answers 404.
import { LitElement, css, html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { NetworkError, ResourceController } from '../src/index.js';
import { TodoResource } from './resources.js';
import { controls } from './styles.js';

@customElement('demo-todo-detail')
export class TodoDetail extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        border: 1px dashed var(--line);
        border-radius: 10px;
        padding: 0.7rem 0.85rem;
        font-size: 0.9rem;
      }
      h3 {
        margin: 0 0 0.5rem;
        font-size: 0.8rem;
        text-transform: uppercase;
        letter-spacing: 0.06em;
        color: var(--muted);
      }
      dl {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 0.25rem 0.75rem;
        margin: 0;
      }
      dt {
        color: var(--muted);
      }
      dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
    `,
  ];

  @property({ attribute: false }) todoId: string | null = null;

  readonly #todo = new ResourceController(this, TodoResource.get, () =>
    this.todoId === null ? null : { id: this.todoId },
  );

  override render() {
    return html`
      <h3>Detail</h3>
      ${
        this.todoId === null
          ? html`<p class="muted">Click a todo to open it here.</p>`
          : this.#todo.render({
              pending: () => html`<p class="pending">Loading todo ${this.todoId}…</p>`,
              complete: (todo) => html`
                <dl>
                  <dt>id</dt>
                  <dd>${todo.id}</dd>
                  <dt>title</dt>
                  <dd class="title">${todo.title}</dd>
                  <dt>user</dt>
                  <dd>${todo.userId}</dd>
                  <dt>status</dt>
                  <dd class="status">${todo.completed ? 'done' : 'open'}</dd>
                </dl>
              `,
              error: (error) =>
                error instanceof NetworkError && error.status === 404
                  ? html`<p class="error gone">
                      Todo ${this.todoId} is gone (the server says 404).
                    </p>`
                  : html`<p class="error">${(error as Error).message}</p>`,
            })
      }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-todo-detail': TodoDetail;
  }
}
