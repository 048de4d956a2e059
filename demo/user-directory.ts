// Users read through UserResource, whose members are all SameOriginEndpoint instances. The card
// shows the request init that endpoint builds, so the override is visible, not just claimed.
import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { ResourceController } from '../src/index.js';
import { SameOriginEndpoint, UserResource } from './resources.js';
import { controls } from './styles.js';

@customElement('demo-user-directory')
export class UserDirectory extends LitElement {
  static override styles = [
    controls,
    css`
      li {
        display: flex;
        justify-content: space-between;
        padding: 0.35rem 0;
        border-bottom: 1px solid var(--sunken);
        font-size: 0.9rem;
      }
      pre {
        margin: 0.85rem 0 0;
        padding: 0.6rem 0.75rem;
        background: var(--code-bg);
        color: var(--code-ink);
        border-radius: 8px;
        font-family: var(--mono);
        font-size: 0.78rem;
        line-height: 1.5;
        white-space: pre-wrap;
      }
    `,
  ];

  /** What UserResource.getList hands to fetch, read from the endpoint itself. */
  @state() requestInit = '';

  // The same list the todo board's user tabs read: one request serves both.
  readonly #users = new ResourceController(this, UserResource.getList);

  override connectedCallback() {
    super.connectedCallback();
    const endpoint = UserResource.getList;
    void endpoint.getRequestInit(undefined).then((init) => {
      const kind = endpoint instanceof SameOriginEndpoint ? 'SameOriginEndpoint' : 'RestEndpoint';
      this.requestInit = `// ${kind}: ${endpoint.url()}\n${JSON.stringify(init, null, 2)}`;
    });
  }

  override render() {
    return html`
      ${this.#users.render({
        pending: () => html`<p class="pending">Loading users…</p>`,
        complete: (users) => html`
          <ul>
            ${users.map(
              (user) =>
                html`<li>
                  <span>${user.name}</span><span class="muted">@${user.username}</span>
                </li>`,
            )}
          </ul>
        `,
        error: (error) => html`<p class="error">${(error as Error).message}</p>`,
      })}
      <pre class="init">${this.requestInit}</pre>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-user-directory': UserDirectory;
  }
}
