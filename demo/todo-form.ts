// Creates a todo for the chosen user: getList.push adds it at the end of every list it matches,
// getList.unshift at the start. Lists with other filters are left alone.
import { LitElement, css, html } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { NetworkError, controllerContext, type ControllerLike } from '../src/index.js';
import { TodoResource } from './resources.js';
import { controls } from './styles.js';

@customElement('demo-todo-form')
export class TodoForm extends LitElement {
  static override styles = [
    controls,
    css`
      form {
        display: flex;
        gap: 0.5rem;
        align-items: center;
        flex-wrap: wrap;
      }
      input[type='text'] {
        width: 16rem;
      }
      .error {
        font-size: 0.85rem;
        flex-basis: 100%;
        margin: 0;
      }
    `,
  ];

  @consume({ context: controllerContext, subscribe: true })
  controller?: ControllerLike;

  @property({ type: Number }) userId = 1;
  @state() busy = false;
  @state() problem = '';
  @query('input') input!: HTMLInputElement;

  override render() {
    return html`
      <form @submit=${(event: Event) => this.#create(event, 'push')}>
        <input type="text" name="title" placeholder="What needs doing?" aria-label="New todo" />
        <button class="primary" type="submit" data-action="push" ?disabled=${this.busy}>
          Add to end
        </button>
        <button
          type="button"
          data-action="unshift"
          ?disabled=${this.busy}
          @click=${(event: Event) => this.#create(event, 'unshift')}
        >
          Add to top
        </button>
        ${this.problem ? html`<p class="error">${this.problem}</p>` : ''}
      </form>
    `;
  }

  async #create(event: Event, where: 'push' | 'unshift') {
    event.preventDefault();
    const controller = this.controller;
    if (!controller || this.busy) return;
    const title = this.input.value.trim();
    this.busy = true;
    this.problem = '';
    try {
      // The body's userId and completed decide which lists the new todo joins.
      await controller.fetch(TodoResource.getList[where], {
        title,
        userId: this.userId,
        completed: false,
      });
      this.input.value = '';
    } catch (error) {
      // The API validates: an empty title comes back as 400 with a JSON message.
      const body = error instanceof NetworkError ? (error.body as { error?: string }) : undefined;
      this.problem = body?.error ?? (error as Error).message;
    } finally {
      this.busy = false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-todo-form': TodoForm;
  }
}
