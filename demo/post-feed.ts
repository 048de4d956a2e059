// Posts of one group, five at a time, scrolling forever: an InfiniteController reads page one
// with getList, and its next pages with getList.getPage (appended to the same list in the store)
// when the sentinel at the bottom of the box scrolls into view, or on "Load more".
import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { InfiniteController } from '../src/infinite/index.js';
import { POSTS_PER_PAGE, PostResource } from './resources.js';
import { controls, postRows } from './styles.js';

const GROUPS = ['news', 'tech'] as const;

@customElement('demo-post-feed')
export class PostFeed extends LitElement {
  static override styles = [
    controls,
    postRows,
    css`
      .tabs {
        margin-bottom: 0.75rem;
      }
      /* The box shows a whole page of posts (five rows of a fixed height, the same in every
         engine), then the top of the "scroll for more" line under them; the sentinel is below
         that line, out of the box's view until it is scrolled: the next page loads only then. */
      .scroller {
        --row: 2rem;
        max-height: calc(5 * var(--row) + 1.25rem);
        overflow-y: auto;
        margin: 0 0 0.75rem;
        border-bottom: 1px solid var(--line);
      }
      .below {
        height: 2.5rem;
        padding-top: 0.2rem;
        text-align: center;
        color: var(--muted);
        font-size: 0.8rem;
      }
      .sentinel {
        height: 1px;
      }
      ol {
        counter-reset: post;
      }
      .footer {
        display: flex;
        justify-content: space-between;
        align-items: center;
        font-size: 0.85rem;
      }
    `,
  ];

  @state() group: (typeof GROUPS)[number] = 'news';

  readonly #posts = new InfiniteController(
    this,
    PostResource.getList,
    () => ({ group: this.group }),
    {
      // A full page may have a next one; a short (or empty) page is the last.
      nextPage: (lastPage, pages) => (lastPage.length === POSTS_PER_PAGE ? pages + 1 : undefined),
    },
  );

  override render() {
    const posts = this.#posts;
    return html`
      <div class="tabs" role="group" aria-label="Group">
        ${GROUPS.map(
          (group) => html`
            <button
              aria-pressed=${String(group === this.group)}
              @click=${() => (this.group = group)}
            >
              ${group}
            </button>
          `,
        )}
      </div>
      ${posts.render({
        pending: () => html`<p class="pending">Loading posts…</p>`,
        complete: (list) => html`
          <div class="scroller">
            <ol>
              ${list.map((post) => html`<li>${post.title}</li>`)}
            </ol>
            ${
              posts.hasMore
                ? html`<div class="below" aria-hidden="true">
                    ${posts.loadingMore ? 'Loading the next page…' : 'Scroll for more ↓'}
                  </div>`
                : ''
            }
            <div class="sentinel" ${posts.sentinel()}></div>
          </div>
          <div class="footer">
            <span class="muted count">${list.length} posts loaded</span>
            ${
              posts.hasMore
                ? html`<button
                    class="more"
                    ?disabled=${posts.loadingMore}
                    @click=${() => posts.loadMore()}
                  >
                    ${posts.loadingMore ? 'Loading…' : 'Load more'}
                  </button>`
                : html`<span class="muted end">That is all of them.</span>`
            }
          </div>
          ${
            posts.loadMoreError
              ? html`<p class="error">${(posts.loadMoreError as Error).message}</p>`
              : ''
          }
        `,
        error: (error) => html`<p class="error">${(error as Error).message}</p>`,
      })}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-post-feed': PostFeed;
  }
}
