// Creates a todo for the chosen user: getList.push adds it at the end of every list it matches,
// getList.unshift at the start. Lists with other filters are left alone. Each button runs a
// MutationController: the form is disabled while one is pending, and the latest failure shows
// next to it.
import { LitElement, css, html } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';
import { MutationController, NetworkError } from '../src/index.js';
import { TodoCreate } from './resources.js';
import { network } from './offline-switch.js';
import { controls } from './styles.js';

@customElement('demo-todo-form')
export class TodoForm extends LitElement {
  static override styles = [
    controls,
    css`
      /* Never wider than the toolbar it sits in, whatever it shows. */
      :host {
        min-width: 0;
        max-width: 100%;
      }
      form {
        display: flex;
        gap: 0.5rem;
        align-items: center;
        flex-wrap: wrap;
      }
      input[type='text'] {
        width: 16rem;
      }
      /* The error takes a line of its own under the controls and wraps there: it adds nothing
         to the form's width, so a long message never pushes the toolbar out of the card. */
      .error {
        font-size: 0.85rem;
        flex-basis: 100%;
        contain: inline-size;
        overflow-wrap: anywhere;
        margin: 0;
      }
    `,
  ];

  @property({ type: Number }) userId = 1;
  @query('input') input!: HTMLInputElement;

  readonly #push = new MutationController(this, TodoCreate.push);
  readonly #unshift = new MutationController(this, TodoCreate.unshift);
  /** The button used last: its failure is the one to show. */
  #last = this.#push;

  override connectedCallback(): void {
    super.connectedCallback();
    network.addEventListener('change', this.#onNetwork);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    network.removeEventListener('change', this.#onNetwork);
  }

  readonly #onNetwork = () => this.requestUpdate();

  override render() {
    // Offline a create waits in the offline queue: another one may follow it at once.
    const busy = !network.offline && (this.#push.pending || this.#unshift.pending);
    const error = this.#last.error;
    return html`
      <form @submit=${(event: Event) => this.#create(event, this.#push)}>
        <input type="text" name="title" placeholder="What needs doing?" aria-label="New todo" />
        <button class="primary" type="submit" data-action="push" ?disabled=${busy}>
          Add to end
        </button>
        <button
          type="button"
          data-action="unshift"
          ?disabled=${busy}
          @click=${(event: Event) => this.#create(event, this.#unshift)}
        >
          Add to top
        </button>
        ${error ? html`<p class="error" role="alert">${describe(error)}</p>` : ''}
      </form>
    `;
  }

  async #create(event: Event, mutation: MutationController<typeof TodoCreate.push>): Promise<void> {
    event.preventDefault();
    if (!network.offline && (this.#push.pending || this.#unshift.pending)) return;
    this.#last = mutation;
    // The body's userId and completed decide which lists the new todo joins. A failure shows
    // through the controller's error: nothing to catch here but the promise's rejection.
    const creating = mutation
      .run({ title: this.input.value.trim(), userId: this.userId, completed: false })
      .catch(() => undefined);
    // Queued offline: it shows already, and is answered only once the network is back.
    if (network.offline) this.input.value = '';
    else if (await creating) this.input.value = '';
  }
}

/** The API validates: an empty title comes back as 400 with a JSON message. */
function describe(error: unknown): string {
  const body = error instanceof NetworkError ? (error.body as { error?: string }) : undefined;
  return body?.error ?? (error as Error).message;
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-todo-form': TodoForm;
  }
}
