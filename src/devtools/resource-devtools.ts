import { LitElement, css, html, nothing } from 'lit';
import { ContextConsumer } from '@lit/context';
import { ExpiryStatus, controllerContext } from '../index.js';
import type {
  Controller,
  ControllerEvent,
  ControllerLike,
  EndpointLike,
  StoreState,
} from '../index.js';

/** One line of the action log. */
interface LogLine {
  readonly at: number;
  readonly text: string;
}

/** A request in flight, as the panel shows it. */
interface Flight {
  readonly key: string;
  readonly method: string;
  /** When it started, by the Controller's clock. */
  readonly at: number;
}

const LOG_SIZE = 200;
/**
 * Entities listed per type, and responses listed; a search finds the others. A panel that
 * rendered (and serialized) a store of 10,000 entities or responses on every action would slow
 * the page it inspects.
 */
const ROWS = 100;

function isController(value: ControllerLike | undefined): value is Controller {
  return (
    !!value && 'events' in value && 'getState' in value && typeof value.getState === 'function'
  );
}

/**
 * The Controller's clock (its `now` option): expiry and request start times are by it, which may
 * not be Date.now (a clock synchronised with the server's, a test's).
 */
function clockOf(controller: Controller): () => number {
  return () => controller.now();
}

/**
 * An entity as the table shows it. What JSON cannot hold (a cycle, a BigInt that a process() made)
 * is named instead of throwing from render(), which would freeze the panel and throw again on
 * every action after. The first try has no replacer: a search stringifies every entity.
 */
function toJSON(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    return `not JSON: ${describeError(error).split('\n')[0]}`;
  }
}

function clock(at: number): string {
  return new Date(at).toISOString().slice(11, 23);
}

function describeError(error: unknown): string {
  if (error === undefined) return '';
  return error instanceof Error || (error && typeof error === 'object' && 'message' in error)
    ? String((error as { message: unknown }).message)
    : String(error);
}

/**
 * A response key that wraps only after a `/` or a `?`: each piece between them is kept whole (a
 * space inside one, `GET /`, does not break either), with a `<wbr>` after each. Breaking anywhere
 * made `DELETE /api/todos/` read `DELETE /a pi/todos/`.
 */
function keyText(key: string) {
  const pieces = key.match(/[^/?]*[/?]|[^/?]+$/g) ?? [key];
  return html`<code class="key"
    >${pieces.map((piece) => html`<span>${piece}</span><wbr />`)}</code
  >`;
}

/**
 * A devtools panel for the Controller of the nearest `<resource-provider>` (or the one given to
 * its `controller` property): entity tables by type with a search, stored responses with their
 * status, expiry and error (buttons to invalidate or refetch each), requests in flight, and a
 * log of the actions committed while it is open, with a button to reset the store. It is a
 * custom element built on `controller.events`: no browser extension, any framework. It lives in
 * its own entry point, so an app that does not import it pays nothing.
 *
 * It takes the height its container gives it (`max-height`, 70vh by default) and scrolls inside;
 * where it goes is the page's choice: a column beside the app, or a drawer the layout leaves
 * room for, so it covers nothing it inspects. Its close button hides it (`open` turns false) and
 * tells the page, which decides how to show it again.
 *
 * @attr open - Whether the panel shows; the close button removes it. Present by default.
 * @fires resource-devtools-close - When its close button was pressed (the panel is hidden).
 * @csspart panel - The panel's box.
 *
 * @example
 * ```html
 * <script type="module">import 'resource-elements/devtools';</script>
 * <resource-provider>
 *   <my-app></my-app>
 *   <resource-devtools></resource-devtools>
 * </resource-provider>
 * ```
 */
export class ResourceDevtools extends LitElement {
  static override properties = {
    controller: { attribute: false },
    open: { type: Boolean, reflect: true },
    _search: { state: true },
    _keySearch: { state: true },
  };

  /** The panel's look: the demo's (slate ink, indigo accent, rounded boxes and buttons). */
  static override styles = css`
    :host {
      display: block;
      max-height: 70vh;
      font:
        13px/1.45 system-ui,
        -apple-system,
        'Segoe UI',
        Roboto,
        sans-serif;
      color: #0f172a;
    }
    :host(:not([open])),
    :host([hidden]) {
      display: none;
    }
    *,
    *::before,
    *::after {
      box-sizing: border-box;
    }
    [part='panel'] {
      display: flex;
      flex-direction: column;
      max-height: inherit;
      border: 1px solid #e2e8f0;
      border-radius: 14px;
      background: #ffffff;
      box-shadow: 0 1px 3px rgb(15 23 42 / 0.06);
      overflow: hidden;
    }
    header {
      display: flex;
      align-items: center;
      gap: 0.5rem;
      padding: 0.6rem 0.75rem 0.6rem 1rem;
      border-bottom: 1px solid #e2e8f0;
    }
    h2 {
      margin: 0 auto 0 0;
      font-size: 0.95rem;
    }
    h2 span {
      color: #4f46e5;
    }
    .body {
      overflow: auto;
      min-height: 0;
      padding: 0 1rem 1rem;
    }
    h3 {
      font-size: 0.7rem;
      letter-spacing: 0.06em;
      margin: 1rem 0 0.4rem;
      text-transform: uppercase;
      color: #64748b;
    }
    button {
      font: inherit;
      font-size: 0.8rem;
      border: 1px solid #e2e8f0;
      background: #ffffff;
      color: #0f172a;
      border-radius: 8px;
      padding: 0.2rem 0.6rem;
      cursor: pointer;
      transition:
        background 0.15s,
        border-color 0.15s;
    }
    button:hover:not(:disabled) {
      border-color: #4f46e5;
    }
    button:disabled {
      opacity: 0.55;
      cursor: default;
    }
    button.close {
      border-color: transparent;
      color: #64748b;
      font-size: 1.1rem;
      line-height: 1;
      padding: 0.2rem 0.45rem;
    }
    button.close:hover {
      color: #dc2626;
    }
    button:focus-visible,
    input:focus {
      outline: 2px solid #c7d2fe;
      outline-offset: 1px;
      border-color: #4f46e5;
    }
    input {
      width: 100%;
      font: inherit;
      font-size: 0.8rem;
      border: 1px solid #e2e8f0;
      border-radius: 8px;
      padding: 0.3rem 0.6rem;
      margin-bottom: 0.4rem;
      color: #0f172a;
      background: #ffffff;
    }
    table {
      border-collapse: collapse;
      width: 100%;
    }
    td,
    th {
      text-align: left;
      padding: 0.3rem 0.4rem;
      border-bottom: 1px solid #e2e8f0;
      vertical-align: top;
    }
    th {
      font-weight: 600;
      color: #64748b;
      font-size: 0.75rem;
    }
    .actions {
      display: flex;
      gap: 0.3rem;
      margin-top: 0.25rem;
    }
    .actions button {
      font-size: 0.7rem;
      padding: 0.05rem 0.45rem;
    }
    td.error {
      overflow-wrap: anywhere;
    }
    .valid {
      color: #16a34a;
    }
    .stale {
      color: #b45309;
    }
    .invalid,
    .error {
      color: #dc2626;
    }
    code {
      font-family: ui-monospace, 'SFMono-Regular', 'DejaVu Sans Mono', Menlo, Consolas, monospace;
      font-size: 0.75rem;
    }
    code.json {
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    /* A key breaks only at its <wbr>s, after a / or a ?: never inside a word. */
    code.key {
      white-space: normal;
      word-break: keep-all;
      overflow-wrap: normal;
    }
    code.key span {
      white-space: nowrap;
    }
    summary {
      cursor: pointer;
      font-weight: 600;
      margin: 0.3rem 0;
    }
    ul,
    ol {
      margin: 0;
      padding-left: 1.2rem;
    }
    time {
      color: #64748b;
      font-variant-numeric: tabular-nums;
    }
    .more,
    .more-responses {
      color: #64748b;
      margin: 0.3rem 0;
    }
  `;

  /** The Controller to inspect; by default the nearest provider's. */
  controller: ControllerLike | undefined;

  /** Whether the panel shows (the `open` attribute); its close button sets it to false. */
  open = true;

  /** @internal The entity search. */
  _search = '';

  /** @internal The response key search. */
  _keySearch = '';

  readonly #log: LogLine[] = [];
  readonly #flights = new Map<number, Flight>();
  /**
   * How to refetch a key: the endpoint and args last seen for it. Pruned when the store lets keys
   * go (a gc, a reset), so a long session does not keep the args of every read it ever made.
   */
  readonly #reads = new Map<string, { endpoint: EndpointLike; args: readonly unknown[] }>();
  /** The Controller `#reads` are for: another one's endpoints are not kept for it. */
  #readsOf: Controller | undefined;
  #watching: Controller | undefined;
  #stop: (() => void) | undefined;

  /** The provider's Controller: used unless one was given to `controller`. */
  #fromContext: ControllerLike | undefined;

  constructor() {
    super();
    new ContextConsumer(this, {
      context: controllerContext,
      subscribe: true,
      callback: (controller) => {
        const given = this.controller !== undefined && this.controller !== this.#fromContext;
        this.#fromContext = controller;
        if (!given) this.controller = controller;
      },
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unwatch();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#watch();
  }

  protected override willUpdate(): void {
    this.#watch();
  }

  #watch(): void {
    const controller = this.controller;
    if (!this.isConnected || controller === this.#watching) return;
    this.#unwatch();
    if (!isController(controller)) return;
    this.#watching = controller;
    if (this.#readsOf !== controller) this.#reads.clear();
    this.#readsOf = controller;
    // The reads shown since before the panel opened: Refetch works for them too.
    for (const { key, subscribers, shown } of controller.reads()) {
      if (subscribers > 0 && shown) this.#remember(key, shown.endpoint, shown.args);
    }
    for (const request of controller.inFlight()) {
      this.#remember(request.key, request.endpoint, request.args);
      const method = request.endpoint.sideEffect ? 'mutation' : 'read';
      this.#flights.set(request.id, { key: request.key, method, at: request.startedAt });
    }
    this.#stop = controller.events.subscribe(this.#onEvent);
  }

  #unwatch(): void {
    this.#stop?.();
    this.#stop = undefined;
    this.#watching = undefined;
    this.#flights.clear();
  }

  readonly #onEvent = (event: ControllerEvent): void => {
    const now = Date.now();
    switch (event.type) {
      case 'action': {
        const { action } = event;
        const key = 'key' in action ? ` ${action.key}` : '';
        const count =
          action.type === 'gc' || action.type === 'invalidate'
            ? ` (${action.keys.length} responses)`
            : '';
        this.#append({ at: now, text: `${action.type}${key}${count}` });
        if (action.type === 'gc' || action.type === 'reset') this.#prune();
        break;
      }
      case 'request':
        this.#remember(event.key, event.endpoint, event.args);
        if (event.phase === 'start') {
          const method = event.endpoint.sideEffect ? 'mutation' : 'read';
          this.#flights.set(event.id, { key: event.key, method, at: clockOf(this.#watching!)() });
        } else {
          this.#flights.delete(event.id);
        }
        break;
      case 'subscription':
        this.#remember(event.key, event.endpoint, event.args);
        break;
      default:
        this.#append({ at: now, text: event.type });
    }
    this.requestUpdate();
  };

  /**
   * Keeps how to refetch the response stored at `key`: only a read whose own request is that
   * response. A mutation sent again would change data again (a second POST, a second record), and
   * a page (`?page=2`) that lands on its list is not the list.
   */
  #remember(key: string, endpoint: EndpointLike, args: readonly unknown[]): void {
    if (!endpoint.sideEffect && endpoint.key(...args) === key)
      this.#reads.set(key, { endpoint, args });
  }

  /** Forgets how to refetch keys that are neither stored, read, nor in flight. */
  #prune(): void {
    const { meta, errors } = this.#watching!.store.committed;
    const flying = new Set([...this.#flights.values()].map((flight) => flight.key));
    const subscribed = new Set<string>();
    for (const read of this.#watching!.reads()) if (read.subscribers > 0) subscribed.add(read.key);
    for (const key of this.#reads.keys()) {
      const kept =
        Object.hasOwn(meta, key) ||
        Object.hasOwn(errors, key) ||
        flying.has(key) ||
        subscribed.has(key);
      if (!kept) this.#reads.delete(key);
    }
  }

  #append(line: LogLine): void {
    this.#log.push(line);
    if (this.#log.length > LOG_SIZE) this.#log.splice(0, this.#log.length - LOG_SIZE);
  }

  protected override render() {
    const controller = this.#watching;
    if (!controller) {
      return html`<div part="panel">
        ${this.#renderHeader(nothing)}
        <p class="body">
          resource-devtools: no Controller (put it inside a &lt;resource-provider&gt;, or set its
          <code>controller</code>).
        </p>
      </div>`;
    }
    // Read now, not kept: getState() would hand the store's tables over for keeping, and the
    // next write would copy each one it touches (10,000 entities: ~6 ms a write in Chromium).
    const state = controller.store.committed;
    return html`<div part="panel">
      ${this.#renderHeader(
        html`<button data-action="reset" @click=${() => controller.resetEntireStore()}>
          Reset store
        </button>`,
      )}
      <div class="body">
        ${this.#renderResponses(controller, state)} ${this.#renderFlights(controller)}
        ${this.#renderEntities(state)} ${this.#renderLog()}
      </div>
    </div>`;
  }

  /** The title bar: the title, `actions`, and the close button. */
  #renderHeader(actions: unknown) {
    return html`<header>
      <h2><span>resource</span> devtools</h2>
      ${actions}
      <button
        class="close"
        data-action="close"
        aria-label="Close devtools"
        title="Close"
        @click=${this.#close}
      >
        ×
      </button>
    </header>`;
  }

  readonly #close = (): void => {
    this.open = false;
    this.dispatchEvent(new Event('resource-devtools-close', { bubbles: true, composed: true }));
  };

  #renderResponses(controller: Controller, state: StoreState) {
    const now = clockOf(controller)();
    const all = [...new Set([...Object.keys(state.meta), ...Object.keys(state.errors)])];
    const search = this._keySearch.trim().toLowerCase();
    const found = search ? all.filter((key) => key.toLowerCase().includes(search)) : all;
    const more = found.length - ROWS;
    const keys = found.sort().slice(0, ROWS);
    return html`<h3>Responses (${all.length})</h3>
      ${this.#searchBox('keys', 'Search keys', '_keySearch')}
      <table>
        <tr>
          <th>key</th>
          <th>status</th>
          <th>expires</th>
          <th>error</th>
        </tr>
        ${keys.map((key) => {
          const meta = state.meta[key];
          const error = state.errors[key];
          const status = meta?.invalidated
            ? ExpiryStatus.Invalid
            : !meta
              ? 'error'
              : now > meta.expiresAt
                ? ExpiryStatus.Stale
                : ExpiryStatus.Valid;
          const read = this.#reads.get(key);
          return html`<tr data-key=${key}>
            <td>
              ${keyText(key)}
              <div class="actions">
                <button
                  data-action="invalidate"
                  @click=${() => controller.invalidateAll((k) => k === key)}
                >
                  Invalidate
                </button>
                <button
                  data-action="refetch"
                  ?disabled=${!read}
                  @click=${() =>
                    read &&
                    void controller
                      .refetch(read.endpoint, ...(read.args as never[]))
                      .catch(() => {})}
                >
                  Refetch
                </button>
              </div>
            </td>
            <td class=${status}>${status}</td>
            <td>${meta ? `${Math.round((meta.expiresAt - now) / 1000)} s` : ''}</td>
            <td class="error">${describeError(error?.error)}</td>
          </tr>`;
        })}
      </table>
      ${
        more > 0
          ? html`<p class="more-responses">and ${more} more: search to find them</p>`
          : nothing
      }`;
  }

  #renderFlights(controller: Controller) {
    const now = clockOf(controller)();
    const flights = [...this.#flights.values()];
    // Dated when it is sent: waiting for its next try or for the network, a request has no age.
    const age = (at: number) =>
      at === Infinity ? 'waiting to be sent' : `${Math.round(now - at)} ms`;
    return html`<h3>In flight (${flights.length})</h3>
      ${
        flights.length === 0
          ? nothing
          : html`<ul class="flights">
              ${flights.map(
                (flight) =>
                  html`<li>${keyText(flight.key)} ${flight.method}, ${age(flight.at)}</li>`,
              )}
            </ul>`
      }`;
  }

  /** A search box that keeps what is typed in `field` (a state property: the panel re-renders). */
  #searchBox(name: string, placeholder: string, field: '_search' | '_keySearch') {
    return html`<input
      type="search"
      data-search=${name}
      placeholder=${placeholder}
      .value=${this[field]}
      @input=${(event: Event) => (this[field] = (event.target as HTMLInputElement).value)}
    />`;
  }

  #renderEntities(state: StoreState) {
    const search = this._search.trim().toLowerCase();
    const types = Object.keys(state.entities).sort();
    return html`<h3>Entities</h3>
      ${this.#searchBox('entities', 'Search type, pk or content', '_search')}
      ${types.map((type) => {
        const table = state.entities[type]!;
        const text = (pk: string) => toJSON(table[pk]) ?? 'INVALID';
        let pks = Object.keys(table);
        if (search && !type.toLowerCase().includes(search)) {
          pks = pks.filter(
            (pk) => pk.toLowerCase().includes(search) || text(pk).toLowerCase().includes(search),
          );
        }
        if (pks.length === 0) return nothing;
        const more = pks.length - ROWS;
        return html`<details open data-type=${type}>
          <summary>${type} (${pks.length})</summary>
          <table>
            ${pks.slice(0, ROWS).map((pk) => {
              const json = text(pk);
              return html`<tr data-pk=${pk}>
                <td>${pk}</td>
                <td>
                  <code class="json">${json.length > 300 ? `${json.slice(0, 300)}…` : json}</code>
                </td>
              </tr>`;
            })}
          </table>
          ${more > 0 ? html`<p class="more">and ${more} more: search to find them</p>` : nothing}
        </details>`;
      })}`;
  }

  #renderLog() {
    return html`<h3>Actions (${this.#log.length})</h3>
      <ol class="log" reversed>
        ${[...this.#log]
          .reverse()
          .map((line) => html`<li><time>${clock(line.at)}</time> ${line.text}</li>`)}
      </ol>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'resource-devtools': ResourceDevtools;
  }
}
