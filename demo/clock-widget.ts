// The server's clock, polled: while this element is connected its ResourceController subscribes
// to clockEndpoint, whose pollFrequency (1 s) drives the refetches. Disconnecting stops them.
import { LitElement, css, html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { ResourceController } from '../src/index.js';
import { clockEndpoint } from './resources.js';
import { controls } from './styles.js';

@customElement('demo-clock')
export class ClockWidget extends LitElement {
  static override styles = [
    controls,
    css`
      .face {
        display: flex;
        align-items: baseline;
        gap: 0.75rem;
      }
      .time {
        font-family: var(--mono);
        font-size: 2rem;
        font-variant-numeric: tabular-nums;
        letter-spacing: -0.02em;
      }
      .pulse {
        width: 0.6rem;
        height: 0.6rem;
        border-radius: 50%;
        background: var(--ok);
        align-self: center;
        animation: pulse 1s ease-in-out infinite;
      }
      @keyframes pulse {
        50% {
          opacity: 0.25;
        }
      }
    `,
  ];

  readonly #clock = new ResourceController(this, clockEndpoint);

  override render() {
    return this.#clock.render({
      pending: () => html`<p class="pending">Asking the server for the time…</p>`,
      complete: (clock) => html`
        <div class="face">
          <span class="pulse" aria-hidden="true"></span>
          <span class="time">${new Date(clock.now).toLocaleTimeString()}</span>
        </div>
        <p class="muted">
          Server answered <strong class="ticks">${clock.ticks}</strong>
          ${clock.ticks === 1 ? 'time' : 'times'}.
        </p>
      `,
      error: (error) => html`<p class="error">${(error as Error).message}</p>`,
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-clock': ClockWidget;
  }
}
