// The server-rendered page (/ssr/, server/ssr.mjs) in Chromium: the real server's HTML is loaded
// into a frame, where the browser parses its declarative shadow roots and runs its scripts, and
// the elements hydrate. Requests are counted at the API (GET /api/__requests).
import { expect } from '@open-wc/testing';
import type { Controller } from '../../src/index.js';
import { api, resetApi, textOf, until } from './demo-page.js';

/** Ada's seeded todos (server/api.mjs): only "Plan the release" is done. */
const ADA_ALL = [
  'Write the spec',
  'Review pull requests',
  'Plan the release',
  'Fix the flaky test',
];
const ADA_OPEN = ['Write the spec', 'Review pull requests', 'Fix the flaky test'];

/** The board's reads for user 1 and the unstable endpoint: what the server prefetches. */
const PREFETCHED = [
  'GET /users',
  'GET /todos?userId=1',
  'GET /todos?userId=1&completed=false',
  'GET /todos?userId=1&completed=true',
  'GET /unstable',
];

/** Runs first in the frame: keeps every warning, error and unhandled rejection. */
const RECORD_PROBLEMS = `
  window.__problems = [];
  for (const level of ['warn', 'error']) {
    const original = console[level];
    console[level] = (...args) => {
      window.__problems.push(level + ': ' + args.map(String).join(' '));
      original.apply(console, args);
    };
  }
  addEventListener('error', (event) => window.__problems.push('error: ' + event.message));
  addEventListener('unhandledrejection', (event) =>
    window.__problems.push('unhandled rejection: ' + event.reason));
`;

/** Runs after the body is parsed, before the module scripts: the nodes the server rendered. */
const RECORD_SERVER_NODES = `
  window.__serverItems = [...document.querySelector('demo-todo-board').shadowRoot
    .querySelectorAll('demo-todo-list')]
    .flatMap((list) => [...list.shadowRoot.querySelectorAll('demo-todo-item')]);
  window.__definedBeforeScripts = customElements.get('demo-todo-board') !== undefined;
  window.__serverChecked = window.__serverItems.map((item) =>
    item.shadowRoot.querySelector('input[type=checkbox]').checked);
`;

type FrameWindow = Window & {
  __problems: string[];
  __serverItems: Element[];
  /** Whether each of those items' checkbox was checked as the HTML came (JavaScript off). */
  __serverChecked: boolean[];
  __definedBeforeScripts: boolean;
  __x?: unknown;
};

type Lit = HTMLElement & { hasUpdated: boolean; updateComplete: Promise<boolean> };

let frame: HTMLIFrameElement | undefined;

/** Serves /ssr/ and counts what the API answered until then (the server's prefetch included). */
async function serve(): Promise<{ page: string; answered: number }> {
  const response = await fetch('/ssr/');
  expect(response.status).to.equal(200);
  const page = await response.text();
  return { page, answered: (await requests()).length };
}

/** What the API answered, as 'METHOD /path?query'. */
async function requests(): Promise<string[]> {
  const log = await api<{ method: string; path: string }[]>('GET', '/__requests');
  return log.body.map((entry) => `${entry.method} ${entry.path}`);
}

/**
 * What the API answered since `answered`, once `expected` is among it: a request the page sent
 * may reach the API after the read of the log that the test sent next (two connections).
 */
async function requestedSince(answered: number, expected: string[]): Promise<string[]> {
  let since: string[] = [];
  for (const start = Date.now(); Date.now() - start < 5000;) {
    since = (await requests()).slice(answered);
    if (expected.every((request) => since.includes(request))) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return since;
}

/** Loads the server's HTML as a document of its own and waits until its elements hydrated. */
async function open(page: string): Promise<{ win: FrameWindow; doc: Document }> {
  const end = page.lastIndexOf('</body>');
  const instrumented =
    page.slice(0, end).replace('<head>', `<head><script>${RECORD_PROBLEMS}</script>`) +
    `<script>${RECORD_SERVER_NODES}</script>` +
    page.slice(end);
  frame = document.createElement('iframe');
  frame.style.cssText = 'width: 1200px; height: 900px';
  const loaded = new Promise((resolve) => frame!.addEventListener('load', resolve, { once: true }));
  frame.srcdoc = instrumented;
  document.body.append(frame);
  await loaded;
  const win = frame.contentWindow as FrameWindow;
  const doc = frame.contentDocument!;
  await until(() => {
    const board = doc.querySelector('demo-todo-board') as Lit | null;
    expect(board?.hasUpdated, 'the board hydrated').to.equal(true);
    const items = lists(doc).flatMap((list) => [
      ...list.shadowRoot!.querySelectorAll('demo-todo-item'),
    ]);
    expect(items.length).to.be.greaterThan(0);
    for (const element of [...lists(doc), ...items]) {
      expect((element as Lit).hasUpdated, `${element.localName} hydrated`).to.equal(true);
    }
  }, 10_000);
  return { win, doc };
}

function lists(doc: Document): HTMLElement[] {
  const board = doc.querySelector('demo-todo-board')!;
  return [...board.shadowRoot!.querySelectorAll<HTMLElement>('demo-todo-list')];
}

function list(doc: Document, heading: string): HTMLElement {
  const found = lists(doc).find((element) => element.getAttribute('heading') === heading);
  if (!found) throw new Error(`no list "${heading}"`);
  return found;
}

function items(listElement: HTMLElement): HTMLElement[] {
  return [...listElement.shadowRoot!.querySelectorAll<HTMLElement>('demo-todo-item')];
}

function titles(listElement: HTMLElement): string[] {
  return items(listElement).map((item) => textOf(item.shadowRoot!.querySelector('.title')!));
}

/** Whether each item's checkbox of the list is checked. */
function checks(listElement: HTMLElement): boolean[] {
  return items(listElement).map((item) => item.shadowRoot!.querySelector('input')!.checked);
}

/** The HTML without Lit's hydration comments. */
function shown(page: string): string {
  return page.replace(/<!--[^]*?-->/g, '').replace(/\s+/g, ' ');
}

describe('demo e2e: server-rendered page', function () {
  this.timeout(30_000);

  beforeEach(resetApi);
  afterEach(() => {
    frame?.remove();
    frame = undefined;
  });

  it('hydrates with no request for what the server fetched, no warning, and stays live', async () => {
    const { page, answered } = await serve();
    // The server fetched each prefetched read once, and rendered the data.
    expect([...(await requests())].sort()).to.deep.equal([...PREFETCHED].sort());
    expect(shown(page)).to.contain('Write the spec').and.not.contain('Loading…');
    // The clock was not prefetched: the server rendered it pending.
    expect(shown(page)).to.contain('Asking the server for the time…');

    const { win, doc } = await open(page);
    expect(win.__definedBeforeScripts).to.equal(false);
    expect(titles(list(doc, 'All'))).to.deep.equal(ADA_ALL);
    expect(titles(list(doc, 'Open'))).to.deep.equal(ADA_OPEN);
    // Only "Plan the release" is done: its checkboxes alone are checked, in the HTML as parsed
    // before any script ran (All, Open, Done) and after hydration.
    const doneOnly = [false, false, true, false, false, false, false, true];
    expect(win.__serverChecked).to.deep.equal(doneOnly);
    expect(lists(doc).flatMap(checks)).to.deep.equal(doneOnly);
    // Hydration kept the server's nodes: the items are the very elements the parser made.
    const hydrated = lists(doc).flatMap(items);
    expect(hydrated).to.have.length(win.__serverItems.length);
    hydrated.forEach((item, i) =>
      expect(item === win.__serverItems[i], `item ${i}`).to.equal(true),
    );
    // The provider took its script out when it hydrated the store.
    expect(doc.querySelector('resource-provider > script')).to.equal(null);

    // The read the server left out is fetched (and polled) by the browser.
    const clock = doc.querySelector('demo-clock')!;
    await until(() => expect(textOf(clock)).to.match(/Server answered \d+ time/), 5000);

    // A mutation after hydration: the toggle is an optimistic move (one PATCH, no list fetched
    // again), so the todo joins the end of Done.
    const checkbox = items(list(doc, 'Open'))[0]!.shadowRoot!.querySelector('input')!;
    checkbox.click();
    await until(
      () => expect(titles(list(doc, 'Done'))).to.deep.equal(['Plan the release', 'Write the spec']),
      5000,
    );
    await until(() => expect(titles(list(doc, 'Open'))).to.deep.equal(ADA_OPEN.slice(1)), 5000);
    expect(textOf(list(doc, 'All'))).to.contain('Write the spec');
    expect(checks(list(doc, 'All'))).to.deep.equal([true, false, true, false]);
    expect(checks(list(doc, 'Open'))).to.deep.equal([false, false]);
    expect(checks(list(doc, 'Done'))).to.deep.equal([true, true]);

    // Counted at the API: after the page was served, nothing but the clock, then the one PATCH
    // of the move (the lists move the todo themselves: nothing is fetched again).
    const since = (await requestedSince(answered, ['PATCH /todos/1'])).filter(
      (request) => request !== 'GET /clock',
    );
    expect(since).to.deep.equal(['PATCH /todos/1']);

    // A box the user clicked follows the store too (the attribute no longer moves it once
    // clicked): "Write the spec", unchecked in All.
    const first = items(list(doc, 'All'))[0]!.shadowRoot!.querySelector('input')!;
    first.click();
    await until(() => expect(titles(list(doc, 'Done'))).to.deep.equal(['Plan the release']), 5000);
    // Moved back: it joins the end of Open.
    await until(
      () => expect(titles(list(doc, 'Open'))).to.deep.equal([...ADA_OPEN.slice(1), ADA_OPEN[0]]),
      5000,
    );
    expect(first.checked).to.equal(false);
    expect(checks(list(doc, 'All'))).to.deep.equal([false, false, true, false]);
    expect(win.__problems).to.deep.equal([]);
  });

  for (const mode of ['production', 'development'] as const) {
    it(`without resource-elements/hydration on the client (${mode}): no page error, the reads are fetched${mode === 'development' ? ', and the provider names the import' : ''}`, async () => {
      const { page, answered } = await serve();
      const forgot = page.replace(
        '/demo/ssr/hydrate-support.ts',
        '/test/e2e/ssr-lit-hydrate-only.ts',
      );
      expect(forgot).to.not.equal(page);
      // Development checks run where the bundler left process.env.NODE_ENV (no bundler here).
      const env =
        mode === 'development' ? `window.process = { env: { NODE_ENV: 'development' } };` : '';
      const { win, doc } = await open(forgot.replace('<head>', `<head><script>${env}</script>`));
      // The elements the server rendered were put back new: they render from the store, which
      // fetches what it does not hold.
      await until(() => {
        expect(titles(list(doc, 'All'))).to.deep.equal(ADA_ALL);
        expect(titles(list(doc, 'Open'))).to.deep.equal(ADA_OPEN);
      }, 5000);
      expect(doc.querySelector('resource-provider > script')).to.equal(null);
      const fetched = ['GET /todos?userId=1', 'GET /users'];
      const since = await requestedSince(answered, fetched);
      expect(since, since.join(', ')).to.include.members(fetched);
      const pageErrors = win.__problems.filter(
        (problem) => !problem.startsWith('error: <resource-provider>'),
      );
      expect(pageErrors).to.deep.equal([]);
      const said = win.__problems.filter((problem) =>
        problem.includes('resource-elements/hydration'),
      );
      expect(said).to.have.length(mode === 'development' ? 1 : 0);
    });
  }

  it('renders a title that looks like markup as text, in the page and in the state script', async () => {
    const evil = '</script><script>window.__x=1</script><!--';
    const created = await api<{ id: string }>('POST', '/todos', { title: evil, userId: 1 });
    expect(created.status).to.equal(201);
    const { page } = await serve();
    // The data never shows up as markup: only the state script and the module scripts.
    expect(page.match(/<script/g)).to.have.length(3);

    const { win, doc } = await open(page);
    expect(win.__x).to.equal(undefined);
    expect(titles(list(doc, 'All'))).to.deep.equal([...ADA_ALL, evil]);
    // The store the provider hydrated holds the title as it was.
    const state = (doc.querySelector('resource-provider')!.controller as Controller).getState();
    const todos = state.entities.Todo as Record<string, { title: string }>;
    expect(todos[created.body.id]!.title).to.equal(evil);
    expect(win.__problems).to.deep.equal([]);
  });

  it('shows a read that failed on the server as its error, then retries it in the browser', async () => {
    await api('POST', '/unstable/fail', { times: 1 });
    const { page, answered } = await serve();
    expect(shown(page)).to.contain('<strong>503</strong> The unstable endpoint failed on purpose.');

    const { win, doc } = await open(page);
    const panel = doc.querySelector('demo-error-panel')!;
    await until(() => expect(textOf(panel)).to.contain('It worked this time.'), 5000);
    expect(textOf(panel)).not.to.contain('503');
    const since = (await requests()).slice(answered).filter((request) => request !== 'GET /clock');
    expect(since).to.deep.equal(['GET /unstable']);
    expect((await api('GET', '/unstable/stats')).body).to.deep.equal({ hits: 2, failNext: 0 });
    expect(win.__problems).to.deep.equal([]);
  });
});
