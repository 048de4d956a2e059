// /api/unstable fails (503) as often as asked. The panel shows the NetworkError with a retry
// button; data from an earlier success stays visible above the error.
import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import {
  NetworkError,
  ResourceController,
  controllerContext,
  type ControllerLike,
} from '../src/index.js';
import { failNextEndpoint, unstableEndpoint } from './resources.js';
import { controls } from './styles.js';

@customElement('demo-error-panel')
export class ErrorPanel extends LitElement {
  static override styles = [
    controls,
    css`
      .layout {
        display: grid;
        gap: 0.75rem;
      }
      .result {
        padding: 0.7rem 0.85rem;
        border-radius: 10px;
        background: var(--sunken);
        font-size: 0.9rem;
      }
      .alert {
        margin-top: 0.6rem;
        padding: 0.7rem 0.85rem;
        border-radius: 10px;
        border: 1px solid var(--danger-line);
        background: var(--danger-wash);
        display: flex;
        gap: 0.75rem;
        align-items: center;
        justify-content: space-between;
        font-size: 0.9rem;
      }
      .alert strong {
        color: var(--danger);
      }
    `,
  ];

  @consume({ context: controllerContext, subscribe: true })
  controller?: ControllerLike;

  @state() busy = false;

  readonly #result = new ResourceController(this, unstableEndpoint);

  override render() {
    const error = this.#result.error;
    return html`
      <div class="layout">
        <div class="controls">
          <div class="row">
            <button class="break" ?disabled=${this.busy} @click=${() => this.#breakAndFetch(2)}>
              Fail next 2, then fetch
            </button>
            <button class="fetch" ?disabled=${this.busy} @click=${this.#retry}>Fetch again</button>
          </div>
        </div>
        <div>
          ${this.#result.render({
            pending: () => html`<div class="result pending">Fetching /api/unstable…</div>`,
            complete: (result) => html`
              <div class="result">
                <strong class="message">${result.message}</strong>
                <span class="muted"
                  >(${result.hits} ${result.hits === 1 ? 'request' : 'requests'} so far)</span
                >
              </div>
            `,
          })}
          ${
            error === undefined
              ? ''
              : html`
                  <div class="alert" role="alert">
                    <span>
                      <strong>${error instanceof NetworkError ? error.status : 'Error'}</strong>
                      ${describe(error)}
                    </span>
                    <button class="retry primary" ?disabled=${this.busy} @click=${this.#retry}>
                      Retry
                    </button>
                  </div>
                `
          }
        </div>
      </div>
    `;
  }

  async #breakAndFetch(times: number) {
    const controller = this.controller;
    if (!controller) return;
    this.busy = true;
    try {
      await controller.fetch(failNextEndpoint, { times });
    } finally {
      this.busy = false;
    }
    await this.#retry();
  }

  readonly #retry = async () => {
    this.busy = true;
    // refetch never rejects: a failure lands in `error`.
    await this.#result.refetch();
    this.busy = false;
  };
}

function describe(error: unknown): string {
  if (error instanceof NetworkError) {
    const body = error.body as { error?: string } | undefined;
    return body?.error ?? error.message;
  }
  return (error as Error).message;
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-error-panel': ErrorPanel;
  }
}
