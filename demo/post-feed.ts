// Posts of one group, five at a time: getList reads page one; "Load more" runs getList.getPage,
// whose answer is appended to the same list in the store.
import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { ResourceController, controllerContext, type ControllerLike } from '../src/index.js';
import { POSTS_PER_PAGE, PostResource } from './resources.js';
import { controls } from './styles.js';

const GROUPS = ['news', 'tech'] as const;

@customElement('demo-post-feed')
export class PostFeed extends LitElement {
  static override styles = [
    controls,
    css`
      .tabs {
        margin-bottom: 0.75rem;
      }
      ol {
        margin: 0 0 0.75rem;
        padding: 0;
        list-style: none;
        counter-reset: post;
      }
      li {
        counter-increment: post;
        display: flex;
        gap: 0.6rem;
        padding: 0.25rem 0;
        border-bottom: 1px solid var(--sunken);
        font-size: 0.9rem;
      }
      li::before {
        content: counter(post);
        color: var(--muted);
        font-variant-numeric: tabular-nums;
        min-width: 1.5rem;
        text-align: right;
      }
      .footer {
        display: flex;
        justify-content: space-between;
        align-items: center;
        font-size: 0.85rem;
      }
    `,
  ];

  @consume({ context: controllerContext, subscribe: true })
  controller?: ControllerLike;

  @state() group: (typeof GROUPS)[number] = 'news';
  @state() loading = false;
  /** Groups whose last page came back short or empty. */
  @state() finished = new Set<string>();

  readonly #posts = new ResourceController(this, PostResource.getList, () => ({
    group: this.group,
  }));

  override render() {
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
      ${this.#posts.render({
        pending: () => html`<p class="pending">Loading posts…</p>`,
        complete: (posts) => html`
          <ol>
            ${posts.map((post) => html`<li>${post.title}</li>`)}
          </ol>
          <div class="footer">
            <span class="muted count">${posts.length} posts shown</span>
            ${
              this.#hasMore(posts.length)
                ? html`<button class="more" ?disabled=${this.loading} @click=${this.#loadMore}>
                    ${this.loading ? 'Loading…' : 'Load more'}
                  </button>`
                : html`<span class="muted end">That is all of them.</span>`
            }
          </div>
        `,
        error: (error) => html`<p class="error">${(error as Error).message}</p>`,
      })}
    `;
  }

  #hasMore(shown: number): boolean {
    return shown % POSTS_PER_PAGE === 0 && !this.finished.has(this.group);
  }

  readonly #loadMore = async () => {
    const controller = this.controller;
    const shown = this.#posts.value?.length ?? 0;
    if (!controller || this.loading) return;
    const group = this.group;
    this.loading = true;
    try {
      // Resolves with the whole list, page appended.
      const posts = await controller.fetch(PostResource.getList.getPage, {
        group,
        page: shown / POSTS_PER_PAGE + 1,
      });
      if (posts.length - shown < POSTS_PER_PAGE) {
        this.finished = new Set([...this.finished, group]);
      }
    } catch (error) {
      console.warn('Loading the next page failed.', error);
    } finally {
      this.loading = false;
    }
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-post-feed': PostFeed;
  }
}
