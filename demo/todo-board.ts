// The todos card: pick a user; see that user's todos as three lists (all, open, done), a form
// that creates todos, and the detail of the todo last clicked.
import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { ResourceController } from '../src/index.js';
import { UserResource } from './resources.js';
import { controls } from './styles.js';
import './todo-list.js';
import './todo-form.js';
import './todo-detail.js';

@customElement('demo-todo-board')
export class TodoBoard extends LitElement {
  static override styles = [
    controls,
    css`
      .toolbar {
        display: flex;
        justify-content: space-between;
        gap: 1rem;
        flex-wrap: wrap;
        margin-bottom: 1rem;
      }
      /* The columns follow the room the board has, not the window's: with the devtools open
         beside the page the card is narrower than the window says. */
      :host {
        container-type: inline-size;
      }
      .lists {
        display: grid;
        grid-template-columns: repeat(3, minmax(0, 1fr)) minmax(0, 1.1fr);
        gap: 0.9rem;
      }
      @container (max-width: 760px) {
        .lists {
          grid-template-columns: repeat(2, minmax(0, 1fr));
        }
      }
      @container (max-width: 440px) {
        .lists {
          grid-template-columns: minmax(0, 1fr);
        }
      }
    `,
  ];

  @state() userId = 1;
  @state() selectedId: string | null = null;

  readonly #users = new ResourceController(this, UserResource.getList);

  override render() {
    const userId = this.userId;
    return html`
      <div class="toolbar">
        <div class="tabs" role="group" aria-label="User">
          ${this.#users.render({
            pending: () => html`<span class="pending">Loading users…</span>`,
            complete: (users) =>
              users.map(
                (user) => html`
                  <button
                    data-user=${user.id}
                    aria-pressed=${String(Number(user.id) === userId)}
                    @click=${() => (this.userId = Number(user.id))}
                  >
                    ${user.name.split(' ')[0]}
                  </button>
                `,
              ),
            error: (error) => html`<span class="error">${(error as Error).message}</span>`,
          })}
        </div>
        <demo-todo-form .userId=${userId}></demo-todo-form>
      </div>
      <div class="lists" @todo-select=${this.#onSelect}>
        <demo-todo-list heading="All" .userId=${userId}></demo-todo-list>
        <demo-todo-list heading="Open" .userId=${userId} .completed=${false}></demo-todo-list>
        <demo-todo-list heading="Done" .userId=${userId} .completed=${true}></demo-todo-list>
        <demo-todo-detail .todoId=${this.selectedId}></demo-todo-detail>
      </div>
    `;
  }

  readonly #onSelect = (event: CustomEvent<{ id: string }>) => {
    this.selectedId = event.detail.id;
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-todo-board': TodoBoard;
  }
  interface HTMLElementEventMap {
    'todo-select': CustomEvent<{ id: string }>;
  }
}
