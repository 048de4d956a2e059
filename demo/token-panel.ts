// GET /api/me through a hook from hookifyResource: the hook reads the token from `session` on
// every update and returns UserResource.me carrying it as an Access-Token header.
import { LitElement, css, html } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import {
  NetworkError,
  ResourceController,
  controllerContext,
  type ControllerLike,
} from '../src/index.js';
import { AuthedUserHooks, session } from './resources.js';
import { controls } from './styles.js';

@customElement('demo-token-panel')
export class TokenPanel extends LitElement {
  static override styles = [
    controls,
    css`
      form {
        display: flex;
        gap: 0.5rem;
        margin-bottom: 0.9rem;
      }
      input[type='text'] {
        flex: 1;
      }
      .card {
        display: flex;
        gap: 0.75rem;
        align-items: center;
        padding: 0.75rem;
        border-radius: 10px;
        background: var(--sunken);
        min-height: 3.6rem;
      }
      .avatar {
        width: 2.2rem;
        height: 2.2rem;
        border-radius: 50%;
        display: grid;
        place-items: center;
        background: var(--accent);
        color: white;
        font-weight: 700;
        flex: none;
      }
      .name {
        font-weight: 600;
      }
      small {
        display: block;
        color: var(--muted);
      }
    `,
  ];

  @consume({ context: controllerContext, subscribe: true })
  controller?: ControllerLike;

  @state() token = session.token;
  @query('input') input!: HTMLInputElement;

  /** The refetch of the last "Use token", until it is answered. */
  #asking: Promise<void> | undefined;

  // Without a token there is nothing to ask: null args skip the request.
  readonly #me = new ResourceController(this, AuthedUserHooks.useMe, () =>
    this.token ? {} : null,
  );

  override render() {
    return html`
      <form @submit=${this.#signIn}>
        <input
          type="text"
          name="token"
          placeholder="Any token, e.g. abc123"
          aria-label="Access token"
          .value=${this.token}
        />
        <button class="primary" type="submit">Use token</button>
        <button type="button" ?disabled=${!this.token} @click=${this.#signOut}>Clear</button>
      </form>
      <div class="card">
        ${
          this.token
            ? this.#me.render({
                pending: () => html`<span class="pending">Asking /api/me…</span>`,
                complete: (me) => html`
                  <span class="avatar" aria-hidden="true">✓</span>
                  <span>
                    <span class="name">${me.name}</span>
                    <small>
                      ${
                        me.token === this.token
                          ? html`The server got <code>Access-Token: ${me.token}</code>`
                          : html`Checking the new token…`
                      }
                    </small>
                  </span>
                `,
                error: (error) =>
                  html`<span class="error"
                    >${
                      error instanceof NetworkError
                        ? `${error.status}: ${(error.body as { error?: string })?.error ?? error.message}`
                        : (error as Error).message
                    }</span
                  >`,
              })
            : html`<span class="muted">No token: the request is not sent (args are null).</span>`
        }
      </div>
    `;
  }

  readonly #signIn = async (event: Event) => {
    event.preventDefault();
    const token = this.input.value.trim();
    if (!token || token === this.token) return;
    session.token = token;
    this.token = token;
    // The hook runs in this update: from here on the read carries the new header. With nothing
    // to show yet (the first token), the update also starts the read.
    await this.updateComplete;
    // The URL is the same for every token, so a stored answer may be an earlier token's: fetch
    // again. refetch() joins an identical read in flight, such as the one the update just
    // started for a first token, so one click sends one request. Only a read still in flight for
    // an earlier token (a click before the last one was answered) must not be joined:
    // invalidate() drops its answer, and the read is sent again with this token.
    if (this.#asking) this.controller?.invalidate(AuthedUserHooks.useMe(), {});
    const asking = (this.#asking = this.#me.refetch());
    await asking;
    if (this.#asking === asking) this.#asking = undefined;
  };

  readonly #signOut = () => {
    session.token = '';
    this.token = '';
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-token-panel': TokenPanel;
  }
}
