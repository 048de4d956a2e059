// InfiniteController on the real Controller with a fake server answered by hand: pages merged with
// no duplicate, loadMore deduped, hasMore from nextPage, a failed page keeping the others, new args
// starting over, a list fetched again starting over, and the IntersectionObserver sentinel.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import './define-provider.js';
import { InfiniteController } from '../infinite/index.js'; // the entry resource-elements/infinite
import { keptPagings } from './infinite-controller.js';
import { until } from './test-utils/reader.js';
import { Controller } from '../core/controller/controller.js';
import { FakeClock } from '../core/controller/test-utils/fake-clock.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';
import { createResource } from '../core/rest/create-resource.js';
import { keepPrevious } from '../views/index.js';
import { Entity } from '../core/schema/entity.js';

class Post extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'InfPost';
}

const PostResource = createResource({
  path: '/feed/:group/posts/:id',
  schema: Post,
  paginationField: 'page',
});

const PAGE = 5;
const nextPages: unknown[] = [];
/** Set by a test: the next call of nextPage throws it. */
let failNext: Error | undefined;
/** Set by a test: the cursors nextPage gives, one per call, instead of page numbers. */
let cursors: unknown[] | undefined;

class InfiniteFeed extends LitElement {
  static override properties = { group: {} };
  /** Empty: the args function throws. */
  group = 'a';
  readonly posts = new InfiniteController(
    this,
    PostResource.getList,
    () => {
      if (!this.group) throw new Error('no group');
      return { group: this.group };
    },
    {
      nextPage: (lastPage, pages) => {
        const error = failNext;
        failNext = undefined;
        if (error) throw error;
        if (cursors) return cursors.shift();
        nextPages.push([lastPage.length, pages]);
        return lastPage.length === PAGE ? pages + 1 : undefined;
      },
    },
  );
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    return html`<div class="scroller" style="height: 100px; overflow-y: auto">
      ${this.posts.render({
        pending: () => html`<p>pending</p>`,
        complete: (posts) =>
          posts.map(
            (post) => html`<p class="post" style="height: 40px; margin: 0">${post.title}</p>`,
          ),
      })}
      <div class="sentinel" style="height: 1px" ${this.posts.sentinel()}></div>
    </div>`;
  }
}
customElements.define('infinite-feed', InfiniteFeed);

/** A feed that keeps its last list on screen while the first page of a new group loads. */
class KeptFeed extends LitElement {
  static override properties = { group: {} };
  group = 'a';
  readonly posts = new InfiniteController(
    this,
    PostResource.getList,
    () => ({ group: this.group }),
    {
      nextPage: (lastPage, pages) => (lastPage.length === PAGE ? pages + 1 : undefined),
      view: keepPrevious,
    },
  );
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    return html`<div class=${this.posts.previous ? 'previous' : 'current'}>
      ${this.posts.render({
        pending: () => html`<p>pending</p>`,
        complete: (posts) => posts.map((post) => html`<p class="post">${post.title}</p>`),
      })}
    </div>`;
  }
}
customElements.define('kept-infinite-feed', KeptFeed);

/** Posts `from`..`to` (inclusive) of group `group`, as the server sends them. */
const posts = (from: number, to: number, group = 'a') =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    id: `${group}${from + i}`,
    title: `${group} post ${from + i}`,
  }));

let made: Controller[] = [];

function setup() {
  const server = new FakeServer();
  const clock = new FakeClock();
  const controller = new Controller({ fetch: server.fetch, now: clock.now, timers: clock.timers });
  made.push(controller);
  return { server, clock, controller };
}

async function mount(controller: Controller): Promise<InfiniteFeed> {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  provider.append(document.createElement('infinite-feed'));
  await fixture(html`<div>${provider}</div>`);
  return provider.querySelector<InfiniteFeed>('infinite-feed')!;
}

const titles = (feed: Element) => [...feed.querySelectorAll('.post')].map((p) => p.textContent);
const urls = (server: FakeServer) => server.calls.map((call) => call.url);

describe('InfiniteController', () => {
  beforeEach(() => {
    nextPages.length = 0;
    cursors = undefined;
  });
  afterEach(() => {
    for (const controller of made) controller.dispose();
    made = [];
  });

  it('5 pages with overlapping items: every post once, in order; hasMore ends on a short page', async () => {
    const { server, controller } = setup();
    const feed = await mount(controller);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/a/posts').respond(200, posts(1, 5));
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    // Each later page repeats the last post of the one before (new posts shifted the offsets).
    const pages = [posts(5, 9), posts(9, 13), posts(13, 17), posts(17, 19)];
    for (const [index, page] of pages.entries()) {
      const loading = feed.posts.loadMore();
      await until(() => expect(server.waiting).to.have.length(1));
      server.take(`GET /feed/a/posts?page=${index + 2}`).respond(200, page);
      await loading;
    }
    await feed.updateComplete;
    const expected = posts(1, 19).map((post) => post.title);
    expect(titles(feed)).to.deep.equal(expected);
    expect(new Set(titles(feed)).size).to.equal(titles(feed).length);
    expect(feed.posts.hasMore).to.equal(false);
    // nextPage saw each page as the server sent it (5 items, the last 3), not the merged list.
    expect(nextPages).to.deep.equal([
      [5, 1],
      [5, 2],
      [5, 3],
      [5, 4],
      [3, 5],
    ]);
    await feed.posts.loadMore(); // nothing more
    expect(server.calls).to.have.length(5);
  });

  it('loadMore is deduped while a page is in flight; loadingMore says so and re-renders', async () => {
    const { server, controller } = setup();
    const feed = await mount(controller);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, posts(1, 5));
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    const first = feed.posts.loadMore();
    const second = feed.posts.loadMore();
    expect(second).to.equal(first);
    expect(feed.posts.loadingMore).to.equal(true);
    await until(() => expect(server.waiting).to.have.length(1));
    expect(urls(server)).to.deep.equal(['/feed/a/posts', '/feed/a/posts?page=2']);
    server.take().respond(200, posts(6, 10));
    await first;
    expect(feed.posts.loadingMore).to.equal(false);
    await feed.updateComplete;
    expect(titles(feed)).to.have.length(10);
  });

  it('a failed page keeps the earlier pages shown; loadMore then asks for the same page again', async () => {
    const { server, controller } = setup();
    const feed = await mount(controller);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, posts(1, 5));
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    const failing = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(404, { message: 'no such page' }); // final: not retried
    await failing; // never rejects
    expect((feed.posts.loadMoreError as { status: number }).status).to.equal(404);
    expect(feed.posts.status).to.equal('complete');
    await feed.updateComplete;
    expect(titles(feed)).to.deep.equal(posts(1, 5).map((post) => post.title));
    expect(feed.posts.hasMore).to.equal(true);
    void feed.posts.loadMore();
    expect(feed.posts.loadMoreError).to.equal(undefined);
    await until(() => expect(server.waiting).to.have.length(1));
    expect(server.take().url).to.equal('/feed/a/posts?page=2');
  });

  it('a nextPage that throws ends the list with its error in loadMoreError; nothing throws', async () => {
    const { server, controller } = setup();
    const feed = await mount(controller);
    const bug = new Error('nextPage bug');
    await until(() => expect(server.waiting).to.have.length(1));
    failNext = bug;
    server.take().respond(200, posts(1, 5));
    await until(() => expect(feed.posts.loadMoreError).to.equal(bug));
    expect(feed.posts.hasMore).to.equal(false);
    await feed.updateComplete;
    expect(titles(feed)).to.have.length(5);
  });

  it('a cursor already loaded ends the list: the sentinel in view asks for no page again', async () => {
    const { server, controller } = setup();
    // The server says "after c1 comes c2", then "after c2 comes c1": a loop.
    cursors = ['c1', 'c2', 'c1'];
    const feed = await mount(controller);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, posts(1, 1));
    // One short post: the sentinel stays in view and loads each next page by itself.
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/a/posts?page=c1').respond(200, posts(2, 2));
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/a/posts?page=c2').respond(200, posts(3, 3));
    await until(() => expect(feed.posts.loadMoreError).to.be.an('error'));
    expect((feed.posts.loadMoreError as Error).message).to.contain('nextPage gave c1 after page 3');
    expect(feed.posts.hasMore).to.equal(false);
    // Before: page c1 again, then c2, c1… for as long as the sentinel was in view.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(urls(server)).to.deep.equal([
      '/feed/a/posts',
      '/feed/a/posts?page=c1',
      '/feed/a/posts?page=c2',
    ]);
    await feed.updateComplete;
    expect(titles(feed)).to.deep.equal(posts(1, 3).map((post) => post.title));
  });

  it('a server that ignores the page parameter: the sentinel stops after 3 pages that add nothing', async () => {
    const { server, controller } = setup();
    cursors = [2, 3, 4, 5, 6, 7, 8, 9];
    const feed = await mount(controller);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, posts(1, 1));
    // Every page answered with the first page's post: nothing new, the sentinel stays in view.
    for (const page of [2, 3, 4]) {
      await until(() => expect(server.waiting).to.have.length(1));
      server.take(`GET /feed/a/posts?page=${page}`).respond(200, posts(1, 1));
    }
    // Before: page 5, 6, 7… one request after another for as long as the sentinel was in view.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.waiting).to.have.length(0);
    expect(feed.posts.hasMore, 'the list is not said to end: a click may go on').to.equal(true);
    const more = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/a/posts?page=5').respond(200, posts(2, 2));
    await more;
    // A page that adds a post lets the sentinel go on by itself.
    await until(() => expect(server.waiting).to.have.length(1));
    expect(server.take().url).to.equal('/feed/a/posts?page=6');
  });

  it('an endpoint that cannot page: loadMore resolves, the reason in loadMoreError', async () => {
    const { server, controller } = setup();
    // No paginationField (the types refuse it; plain JS may not): no getPage to load pages with.
    const single = PostResource.get.extend({ path: '/one', schema: { post: Post } });
    const feed = await mount(controller);
    const broken = new InfiniteController(feed, single as never, () => ({}), {
      nextPage: () => 2,
    });
    controller.setResponse(single, {}, { post: { id: 'p', title: 'only' } });
    feed.requestUpdate();
    await until(() => expect(broken.hasMore).to.equal(true));
    await broken.loadMore();
    expect((broken.loadMoreError as Error).message).to.contain('has no getPage');
    expect(server.calls.map((call) => call.url)).to.not.include('/one?page=2');
  });

  it('new args start over from their first page', async () => {
    const { server, controller } = setup();
    const feed = await mount(controller);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, posts(1, 5));
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    const loading = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, posts(6, 10));
    await loading;
    feed.group = 'b';
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/b/posts').respond(200, posts(1, 5, 'b'));
    await until(() => expect(titles(feed)).to.have.length(5));
    const next = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    expect(server.take().url).to.equal('/feed/b/posts?page=2');
    void next;
  });

  it('with the keepPrevious view, keeps the last list while the first page of new args loads', async () => {
    const { server, controller } = setup();
    const provider = document.createElement('resource-provider');
    provider.controller = controller;
    provider.append(document.createElement('kept-infinite-feed'));
    await fixture(html`<div>${provider}</div>`);
    const feed = provider.querySelector<KeptFeed>('kept-infinite-feed')!;
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/a/posts').respond(200, posts(1, 5));
    await until(() => expect(titles(feed)).to.have.length(5));

    feed.group = 'b';
    await until(() => expect(server.waiting).to.have.length(1));
    await feed.updateComplete;
    expect(feed.textContent).to.not.include('pending');
    expect(titles(feed)).to.deep.equal(posts(1, 5).map((post) => post.title));
    expect(feed.querySelector('.previous')).to.not.equal(null);
    server.take('GET /feed/b/posts').respond(200, posts(1, 3, 'b'));
    await until(() => expect(titles(feed)).to.deep.equal(['b post 1', 'b post 2', 'b post 3']));
    expect(feed.querySelector('.current')).to.not.equal(null);
    expect(feed.posts.hasMore).to.equal(false);
  });

  it('a page of the old args settling late leaves the page of the new args in flight alone', async () => {
    const { server, controller } = setup();
    const feed = await mount(controller);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, posts(1, 5));
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    const oldPage = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    feed.group = 'b';
    await until(() => expect(server.waiting).to.have.length(2));
    server.take('GET /feed/b/posts').respond(200, posts(1, 5, 'b'));
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    const newPage = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(2));
    server.take('GET /feed/a/posts?page=2').respond(200, posts(6, 10));
    await oldPage;
    // Before: the old page cleared loadingMore, so a second loadMore ran too, both counted a
    // page, and the next one asked for page 4 (page 3 never shown).
    expect(feed.posts.loadingMore).to.equal(true);
    expect(feed.posts.loadMore()).to.equal(newPage);
    server.take('GET /feed/b/posts?page=2').respond(200, posts(6, 10, 'b'));
    await newPage;
    await feed.updateComplete;
    expect(titles(feed)).to.deep.equal(posts(1, 10, 'b').map((post) => post.title));
    void feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    expect(server.take().url).to.equal('/feed/b/posts?page=3');
  });

  it('two elements showing one list: a page one loads is no refetch for the other', async () => {
    const { server, controller } = setup();
    const provider = document.createElement('resource-provider');
    provider.controller = controller;
    provider.append(
      document.createElement('infinite-feed'),
      document.createElement('infinite-feed'),
    );
    await fixture(html`<div>${provider}</div>`);
    const [main, side] = [...provider.querySelectorAll<InfiniteFeed>('infinite-feed')];
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, posts(1, 5));
    await until(() => expect(main!.posts.hasMore && side!.posts.hasMore).to.equal(true));
    const loading = main!.posts.loadMore();
    expect(side!.posts.loadMore(), 'one page request for both').to.equal(loading);
    expect(side!.posts.loadingMore).to.equal(true);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/a/posts?page=2').respond(200, posts(6, 10));
    await loading;
    await side!.updateComplete;
    expect(titles(side!)).to.have.length(10);
    // Before: the other element took the grown list for a refetch and asked nextPage about all
    // ten posts as if they were its first page: no more pages.
    expect(side!.posts.hasMore).to.equal(true);
    expect(side!.posts.loadingMore).to.equal(false);
    void side!.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    expect(server.take().url).to.equal('/feed/a/posts?page=3');
  });

  /** A feed showing page one (posts 1-5), with more to come. */
  async function pageOneShown() {
    const { server, clock, controller } = setup();
    const feed = await mount(controller);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, posts(1, 5));
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    return { server, clock, feed, controller };
  }

  /**
   * A feed with page one (posts 1-5) and then `second` loaded; a second later the list is fetched
   * again and answers page one as it was.
   */
  async function twoPagesThenRefetch(second: object[], between?: (feed: InfiniteFeed) => unknown) {
    const { server, clock, feed } = await pageOneShown();
    const loading = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, second);
    await loading;
    await between?.(feed);
    clock.advance(1_000);
    const refetched = feed.posts.refetch();
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/a/posts').respond(200, posts(1, 5));
    await refetched;
    return { server, feed };
  }

  it("a list's pages are kept while it is shown or stored, and go when the store drops it", async () => {
    const { server, clock, feed, controller } = await pageOneShown();
    const loading = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/a/posts?page=2').respond(200, posts(6, 10));
    await loading;
    /** Shows `group`'s list, answering its first page when it is not stored. */
    const show = async (group: string, fetched: boolean) => {
      feed.group = group;
      if (fetched) {
        await until(() => expect(server.waiting).to.have.length(1));
        server.take(`GET /feed/${group}/posts`).respond(200, posts(1, 5, group));
      }
      await until(() => expect(feed.posts.hasMore).to.equal(true));
    };
    await show('b', true);
    await show('c', true);
    expect(keptPagings(controller)).to.equal(3);
    // 'a' is stored, with its two pages: they still count.
    await show('a', false);
    await feed.updateComplete;
    expect(titles(feed)).to.have.length(10);
    await show('c', false);
    // 'a' and 'b' unused for longer than gcTime (5 minutes): collected, and their pagings too.
    clock.advance(5 * 60_000 + 1);
    expect(controller.getResponse(PostResource.getList, { group: 'a' }).expiresAt).to.equal(0);
    expect(keptPagings(controller)).to.equal(1);
    // 'a' again: fetched afresh, one page, and the next is page two.
    await show('a', true);
    const page = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    const request = server.take();
    expect(request.url).to.equal('/feed/a/posts?page=2');
    // A reset while that page loads, then the host leaves: the paging goes once the page ends.
    controller.resetEntireStore();
    feed.group = '';
    await feed.updateComplete;
    expect(keptPagings(controller), 'kept while its page loads').to.equal(1);
    request.respond(200, posts(6, 10));
    await page;
    expect(keptPagings(controller)).to.equal(0);
  });

  it('the list fetched again (page one only) starts the page count over', async () => {
    const { server, feed } = await twoPagesThenRefetch(posts(6, 10));
    await until(() => expect(titles(feed)).to.have.length(5));
    const next = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    expect(server.take().url).to.equal('/feed/a/posts?page=2');
    void next;
  });

  it('after the end, the list fetched again with the same first page pages again', async () => {
    // Page two is empty: the end, for now. Later the list is fetched again: its first page is
    // the same, and more may follow it.
    const { server, feed } = await twoPagesThenRefetch([], (ended) =>
      until(() => expect(ended.posts.hasMore).to.equal(false)),
    );
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    const next = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    expect(server.take().url).to.equal('/feed/a/posts?page=2');
    void next;
  });

  /**
   * Pull to refresh while scrolling: page two is in flight when the list is fetched again, and the
   * list answers first (page one as it was). Then page two answers `status` with `body`: older
   * than the list's answer, so the store drops it.
   */
  async function pageTwoOutrunByRefetch(status: number, body: unknown) {
    const { server, clock, feed } = await pageOneShown();
    const loading = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    clock.advance(1_000);
    const refetched = feed.posts.refetch();
    await until(() => expect(server.waiting).to.have.length(2));
    server.take('GET /feed/a/posts').respond(200, posts(1, 5));
    await refetched;
    server.take('GET /feed/a/posts?page=2').respond(status, body);
    await loading;
    return { server, feed };
  }

  it('the list fetched again while a page loads: the late page is dropped, and not counted', async () => {
    const { server, feed } = await pageTwoOutrunByRefetch(200, posts(6, 10));
    await feed.updateComplete;
    expect(titles(feed)).to.have.length(5);
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    const next = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    expect(server.take().url, 'page two again, not three').to.equal('/feed/a/posts?page=2');
    void next;
  });

  it('the list fetched again while a page loads: a late failure of the page is no error', async () => {
    const { server, feed } = await pageTwoOutrunByRefetch(404, { message: 'gone' });
    await feed.updateComplete;
    expect(feed.posts.loadMoreError, 'the failure belonged to the old list').to.equal(undefined);
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    const next = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    expect(server.take().url).to.equal('/feed/a/posts?page=2');
    void next;
  });

  it('args that throw: the read shows their error, no more pages, nothing escapes', async () => {
    const seen: unknown[] = [];
    const onError = (event: ErrorEvent) => seen.push(event.error);
    const onRejection = (event: PromiseRejectionEvent) => seen.push(event.reason);
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    try {
      const { server, controller } = setup();
      const feed = await mount(controller);
      await until(() => expect(server.waiting).to.have.length(1));
      server.take().respond(200, posts(1, 5));
      await until(() => expect(feed.posts.hasMore).to.equal(true));
      feed.group = '';
      await until(() => expect(feed.posts.status).to.equal('error'));
      expect((feed.posts.error as Error).message).to.equal('no group');
      expect([feed.posts.hasMore, feed.posts.loadingMore]).to.deep.equal([false, false]);
      await feed.posts.loadMore();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(server.calls).to.have.length(1);
      expect(seen).to.deep.equal([]);
    } finally {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    }
  });

  it('asks the provider once per connection: one link to the Controller, shared with ResourceController', async () => {
    const { server, controller } = setup();
    const provider = document.createElement('resource-provider');
    provider.controller = controller;
    let requests = 0;
    provider.addEventListener('context-request', (event) => {
      if (event.target instanceof InfiniteFeed) requests++;
    });
    provider.append(document.createElement('infinite-feed'));
    await fixture(html`<div>${provider}</div>`);
    const feed = provider.querySelector<InfiniteFeed>('infinite-feed')!;
    expect(requests).to.equal(1);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/a/posts').respond(200, posts(1, 5));
    await until(() => expect(feed.posts.hasMore).to.equal(true));
    const loading = feed.posts.loadMore();
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /feed/a/posts?page=2').respond(200, posts(6, 7));
    await loading;
    expect(titles(feed)).to.have.length(7);
  });

  it('the sentinel loads the next page when it scrolls into view, and only then', async () => {
    const { server, controller } = setup();
    const feed = await mount(controller);
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, posts(1, 5));
    await until(() => expect(titles(feed)).to.have.length(5));
    // Five posts of 40px in a 100px scrolling box: the box clips the sentinel until scrolled.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.waiting).to.have.length(0);
    const scroller = feed.querySelector<HTMLElement>('.scroller')!;
    scroller.scrollTop = scroller.scrollHeight;
    await until(() => expect(server.waiting).to.have.length(1));
    expect(server.take().url).to.equal('/feed/a/posts?page=2');
  });
});
