// Posts of one group, a page at a time, searched by title: Previous and Next change the page
// number, typing changes `q`, and each page of each search is its own read (postPage with `page`
// and `q` in its search params), so a page read before shows at once. While a new one loads, the
// last page stays on screen, dimmed (the keepPrevious view): never "Loading…" after the first.
import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { ResourceController } from '../src/index.js';
import { keepPrevious } from '../src/views/index.js';
import { POSTS_PER_PAGE, postPage } from './resources.js';
import { controls, postRows } from './styles.js';

@customElement('demo-post-pages')
export class PostPages extends LitElement {
  static override styles = [
    controls,
    postRows,
    css`
      /* Always the height of a whole page, so the buttons stay put while a page loads. */
      .box {
        --row: 2rem;
        min-height: calc(${POSTS_PER_PAGE} * var(--row));
        margin: 0 0 0.75rem;
        border-bottom: 1px solid var(--line);
      }
      /* The last page, kept while the next one loads. */
      .box.previous {
        opacity: 0.5;
        transition: opacity 0.15s 0.1s;
      }
      .search {
        display: block;
        margin: 0 0 0.5rem;
      }
      .pager {
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: 0.5rem;
        font-size: 0.85rem;
      }
    `,
  ];

  /** The group whose posts are paged. */
  readonly group = 'tech';
  @state() page = 1;
  /** The search in the titles; empty: every post. */
  @state() query = '';

  readonly #posts = new ResourceController(
    this,
    postPage,
    () => ({ group: this.group, page: this.page, ...(this.query && { q: this.query }) }),
    { view: keepPrevious },
  );

  override render() {
    const posts = this.#posts.value;
    // A full page may have a next one; a short page is the last.
    const hasNext = posts !== undefined && posts.length === POSTS_PER_PAGE;
    return html`
      <input
        class="search"
        type="search"
        placeholder="Search the titles"
        aria-label="Search the titles"
        .value=${this.query}
        @input=${(event: Event) => {
          this.query = (event.target as HTMLInputElement).value;
          this.page = 1;
        }}
      />
      <div
        class="box ${this.#posts.previous ? 'previous' : ''}"
        aria-busy=${this.#posts.refreshing}
      >
        ${this.#posts.render({
          pending: () => html`<p class="pending">Loading page ${this.page}…</p>`,
          complete: (list) =>
            list.length
              ? html`
                  <ol style="counter-reset: post ${(this.page - 1) * POSTS_PER_PAGE}">
                    ${list.map((post) => html`<li>${post.title}</li>`)}
                  </ol>
                `
              : html`<p class="muted empty">No post matches.</p>`,
          error: (error) => html`<p class="error">${(error as Error).message}</p>`,
        })}
      </div>
      <div class="pager">
        <button class="previous" ?disabled=${this.page === 1} @click=${() => (this.page -= 1)}>
          ← Previous
        </button>
        <span class="page muted">Page ${this.page}</span>
        <button class="next" ?disabled=${!hasNext} @click=${() => (this.page += 1)}>Next →</button>
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-post-pages': PostPages;
  }
}
