// The page: a header and one card per capability. The <resource-provider> above it (index.html)
// owns the one store every section reads from. The page's own controls (index.html's offline
// switch) are slotted into the header, beside the devtools toggle.
import { LitElement, css, html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import '../src/boundary/index.js';
import '../src/devtools/index.js';
import './todo-board.js';
import './post-feed.js';
import './post-pages.js';
import './token-panel.js';
import './user-directory.js';
import './clock-widget.js';
import './error-panel.js';
import './live-feed.js';

@customElement('demo-app')
export class DemoApp extends LitElement {
  static override styles = css`
    :host {
      display: block;
      max-width: 1120px;
      margin: 0 auto;
      padding: 2rem 1.5rem 3rem;
    }
    header {
      margin-bottom: 1.5rem;
    }
    h1 {
      margin: 0;
      font-size: 1.75rem;
      letter-spacing: -0.02em;
    }
    h1 span {
      color: var(--accent);
    }
    header p {
      margin: 0.35rem 0 0;
      color: var(--muted);
      max-width: 70ch;
    }
    header p code {
      white-space: nowrap;
    }
    .grid {
      display: grid;
      grid-template-columns: repeat(3, minmax(0, 1fr));
      gap: 1.25rem;
    }
    .wide {
      grid-column: 1 / -1;
    }
    section {
      background: var(--surface);
      border: 1px solid var(--line);
      border-radius: 14px;
      padding: 1.1rem 1.25rem 1.25rem;
      box-shadow: 0 1px 3px rgb(15 23 42 / 0.06);
      min-width: 0;
    }
    h2 {
      margin: 0;
      font-size: 1.05rem;
      display: flex;
      align-items: baseline;
      gap: 0.5rem;
      flex-wrap: wrap;
    }
    h2 code {
      font-family: var(--mono);
      font-size: 0.75rem;
      font-weight: 500;
      color: var(--accent-strong);
      background: var(--accent-wash);
      border-radius: 6px;
      padding: 0.1rem 0.4rem;
    }
    .lead {
      margin: 0.3rem 0 1rem;
      color: var(--muted);
      font-size: 0.9rem;
    }
    .lead code {
      white-space: nowrap;
    }
    /* The text, and at its right the page's controls; where they do not fit side by side (the
       devtools open beside the page) the controls go under the text, still at the right. */
    header {
      display: flex;
      flex-wrap: wrap;
      justify-content: space-between;
      align-items: flex-start;
      gap: 1rem;
    }
    .intro {
      flex: 1 1 20rem;
      min-width: 0;
    }
    /* What the page slots in (index.html's offline switch), then the devtools toggle; under
       them, the page's status line. */
    .tools {
      display: flex;
      flex-direction: column;
      align-items: flex-end;
      gap: 0.4rem;
      margin-left: auto;
    }
    .tools-row {
      display: flex;
      flex-wrap: wrap;
      justify-content: flex-end;
      align-items: center;
      gap: 0.5rem;
    }
    ::slotted([slot='status']) {
      color: var(--muted);
      font-size: 0.8rem;
      text-align: right;
    }
    .devtools-toggle {
      font: inherit;
      font-size: 0.85rem;
      border: 1px solid var(--line);
      background: var(--surface);
      border-radius: 8px;
      padding: 0.35rem 0.7rem;
      cursor: pointer;
      white-space: nowrap;
    }
    /* With the devtools open, the page makes room for them: a column beside the cards (below
       them on a narrow screen), so the panel never covers the lists it inspects. */
    :host([devtools]) {
      max-width: 1640px;
      display: grid;
      grid-template-columns: minmax(0, 1fr) minmax(340px, 440px);
      column-gap: 1.25rem;
      align-items: start;
    }
    :host([devtools]) header,
    :host([devtools]) main {
      grid-column: 1;
    }
    resource-devtools {
      grid-column: 2;
      grid-row: 1 / span 2;
      position: sticky;
      top: 1rem;
      max-height: calc(100vh - 2rem);
    }
    main {
      container-type: inline-size;
    }
    /* The cards in two columns when the devtools leave them less room. */
    @container (min-width: 560px) and (max-width: 820px) {
      .grid {
        grid-template-columns: repeat(2, minmax(0, 1fr));
      }
    }
    /* One column where two would be too narrow: a small window, or the devtools open beside
       the page in a window of 1000 px (the window's width alone said three). */
    @container (max-width: 560px) {
      .grid {
        grid-template-columns: minmax(0, 1fr);
      }
    }
    @media (max-width: 900px) {
      :host([devtools]) {
        display: block;
      }
      resource-devtools {
        position: static;
        max-height: 70vh;
        margin-bottom: 1.25rem;
      }
    }
    .board-loading {
      color: var(--muted);
      padding: 1rem 0;
    }
  `;

  /** Whether the devtools panel is open (reflected: the layout makes room for it). */
  @property({ type: Boolean, reflect: true }) devtools = false;

  override render() {
    return html`
      <header>
        <div class="intro">
          <h1>resource-elements <span>demo</span></h1>
          <p>
            Every card below reads the same normalized store, through one
            <code>&lt;resource-provider&gt;</code>, from the REST API this server hosts under
            <code>/api</code>.
          </p>
        </div>
        <div class="tools">
          <div class="tools-row">
            <slot name="tools"></slot>
            <button
              class="devtools-toggle"
              aria-pressed=${this.devtools}
              @click=${() => (this.devtools = !this.devtools)}
            >
              ${this.devtools ? 'Hide' : 'Show'} devtools
            </button>
          </div>
          <slot name="status"></slot>
        </div>
      </header>
      ${
        this.devtools
          ? html`<resource-devtools
              @resource-devtools-close=${() => (this.devtools = false)}
            ></resource-devtools>`
          : ''
      }
      <main>
        <div class="grid">
          <section class="wide" id="todos">
            <h2>
              Todos <code>Collection</code> <code>push</code> <code>unshift</code> <code>move</code>
              <code>followFilters</code> <code>MutationController</code>
            </h2>
            <p class="lead">
              Each filter (user, open, done) is its own list: a new todo joins the lists it matches,
              a toggle moves it between Open and Done at once (optimistic, one request), and so does
              a change made in another tab or by another client (pushed, no request); a delete
              leaves every list together.
            </p>
            <resource-boundary delay="150">
              <p slot="fallback" class="board-loading">Loading the board…</p>
              <demo-todo-board></demo-todo-board>
            </resource-boundary>
          </section>
          <section class="wide" id="live">
            <h2>Live <code>events</code> <code>sync-tabs</code> <code>persist</code></h2>
            <p class="lead">
              Changes made through the API by anyone arrive over Server-Sent Events and update every
              list that shows them; other tabs of this page share what they fetch; a reload starts
              from the copy kept in IndexedDB.
            </p>
            <demo-live></demo-live>
          </section>
          <section id="posts">
            <h2>Infinite list <code>InfiniteController</code> <code>getPage</code></h2>
            <p class="lead">
              Scrolling to the end of the box (or "Load more") appends the next page to the list,
              never twice the same post.
            </p>
            <demo-post-feed></demo-post-feed>
          </section>
          <section id="pages">
            <h2>Pages <code>searchParams</code></h2>
            <p class="lead">
              Previous and Next show one page of the tech posts at a time, each its own read of
              <code>?page=N</code>; a page read before shows at once.
            </p>
            <demo-post-pages></demo-post-pages>
          </section>
          <section id="auth">
            <h2>Auth headers <code>hookifyResource</code></h2>
            <p class="lead">
              The hook adds an <code>Access-Token</code> header from the field to GET /api/me.
            </p>
            <demo-token-panel></demo-token-panel>
          </section>
          <section id="endpoint">
            <h2>Custom endpoint <code>Endpoint</code> <code>extend</code></h2>
            <p class="lead">
              A RestEndpoint subclass sets <code>credentials</code> for every member of the
              resource.
            </p>
            <demo-user-directory></demo-user-directory>
          </section>
          <section id="polling">
            <h2>Polling <code>pollFrequency</code></h2>
            <p class="lead">Fetched again every second while it is on the page.</p>
            <demo-clock></demo-clock>
          </section>
          <section id="errors">
            <h2>Errors and retry <code>NetworkError</code></h2>
            <p class="lead">
              A failed request shows its error (and keeps the last good data); retry fetches again.
            </p>
            <demo-error-panel></demo-error-panel>
          </section>
        </div>
      </main>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-app': DemoApp;
  }
}
