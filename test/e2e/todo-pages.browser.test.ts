// The todo pages the docs print, run as printed, each the way a user would use it: the README's
// first app (Lit) and the "Without Lit" guide's pages (a vanilla element, a FAST element, plain
// HTML). web-test-runner.config.mjs serves the README's blocks at /first-app/ and the guide's at
// /guide/, straight from the Markdown; each page loads in an iframe against the demo's API (the
// same /api/ routes `npm start` serves). Every page lists user 1's todos, adds one with its form,
// deletes it, and shows the server's error for an empty title; what a page promises beyond that
// is tested after.
import { expect } from '@open-wc/testing';
import { until as waitUntil } from '../../src/lit/test-utils/reader.js';

const until = (check: () => void) => waitUntil(check, 4000);

interface TodoPage {
  /** What the test names it. */
  readonly name: string;
  readonly path: string;
  /** Where the page renders its list and form: an element's shadow root, or the document. */
  root(document: Document): ParentNode | null | undefined;
  /** The rows of the list. */
  readonly rows: string;
  /** The title within a row; the row's text without its button when there is none. */
  readonly title?: string;
}

const pages: TodoPage[] = [
  {
    name: "the README's first app (Lit)",
    path: '/first-app/index.html',
    root: (document) => document.querySelector('todo-app')?.shadowRoot,
    rows: 'li',
  },
  {
    name: "the guide's vanilla element",
    path: '/guide/vanilla-todos.html',
    root: (document) => document.querySelector('vanilla-todos')?.shadowRoot,
    rows: 'li',
  },
  {
    name: "the guide's FAST element",
    path: '/guide/fast-todos.html',
    root: (document) => document.querySelector('fast-todos')?.shadowRoot,
    rows: 'li',
  },
  {
    name: "the guide's plain HTML page",
    path: '/guide/plain-todos.html',
    root: (document) => document,
    rows: 'resource-read li',
    title: '[data-field=title]',
  },
];

let frame: HTMLIFrameElement | undefined;

/** Loads the page; resolves with where it renders, once its list shows. */
async function open(page: TodoPage): Promise<ParentNode> {
  frame = document.createElement('iframe');
  frame.src = page.path;
  document.body.append(frame);
  let root: ParentNode | null | undefined;
  await until(() => {
    root = page.root(frame!.contentDocument!);
    expect(root?.querySelectorAll(page.rows).length, 'the list rendered').to.be.above(0);
  });
  return root!;
}

const rowsOf = (page: TodoPage, root: ParentNode) => [...root.querySelectorAll(page.rows)];
const titlesOf = (page: TodoPage, root: ParentNode) =>
  rowsOf(page, root).map((row) =>
    page.title
      ? row.querySelector(page.title)!.textContent
      : row.textContent!.replace('Delete', '').trim(),
  );

/** Types a title and submits the page's form. */
function add(root: ParentNode, title: string): HTMLInputElement {
  const input = root.querySelector('input')!;
  input.value = title;
  input.dispatchEvent(new Event('input'));
  root.querySelector<HTMLButtonElement>('form button')!.click();
  return input;
}

/** Adds a todo of user 2 (the users' seeded lists have the same titles). */
const addForUser2 = () =>
  fetch('/api/todos', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Only for user 2', userId: 2 }),
  });

beforeEach(async () => {
  await fetch('/api/__reset', { method: 'POST' });
});
afterEach(async () => {
  frame?.remove();
  frame = undefined;
  await fetch('/api/__reset', { method: 'POST' });
});

for (const page of pages) {
  describe(page.name, () => {
    const titles = (root: ParentNode) => titlesOf(page, root);

    it('lists the todos of user 1, adds one with the form and deletes it', async () => {
      const root = await open(page);
      await until(() =>
        expect(titles(root)).to.deep.equal([
          'Write the spec',
          'Review pull requests',
          'Plan the release',
          'Fix the flaky test',
        ]),
      );

      const input = add(root, 'Buy bread');
      await until(() => expect(titles(root)).to.have.length(5));
      expect(titles(root)[4]).to.equal('Buy bread');
      await until(() => expect(input.value).to.equal(''));
      // The page did not navigate: the submit's default was prevented.
      expect(page.root(frame!.contentDocument!) === root, 'the same page').to.equal(true);
      const created = (await (await fetch('/api/todos?userId=1')).json()) as { id: string }[];
      expect(created).to.have.length(5);
      const id = created[4]!.id;

      rowsOf(page, root)[4]!.querySelector('button')!.click();
      await until(() => expect(titles(root)).to.have.length(4));
      expect(titles(root)).to.not.include('Buy bread');
      expect((await fetch(`/api/todos/${id}`)).status).to.equal(404);
    });

    it("shows the server's error when the title is empty", async () => {
      const root = await open(page);
      await until(() => expect(titles(root)).to.have.length(4));
      root.querySelector<HTMLButtonElement>('form button')!.click();
      await until(() =>
        expect(root.querySelector('[role=alert]')?.textContent).to.include('must not be empty'),
      );
      expect(titles(root)).to.have.length(4);
    });
  });
}

describe("what the guide's pages promise beyond that", () => {
  const [, vanilla, fast, plain] = pages as [TodoPage, TodoPage, TodoPage, TodoPage];

  for (const [page, tag] of [
    [vanilla, 'vanilla-todos'],
    [fast, 'fast-todos'],
  ] as const) {
    it(`${page.name} lists another user's todos when its user-id attribute changes`, async () => {
      await addForUser2();
      const root = await open(page);
      await until(() => expect(titlesOf(page, root)).to.have.length(4));
      frame!.contentDocument!.querySelector(tag)!.setAttribute('user-id', '2');
      await until(() => expect(titlesOf(page, root)).to.have.length(5));
      expect(titlesOf(page, root)[4]).to.equal('Only for user 2');
    });
  }

  it('the vanilla element changes only what the read shows: a draft outlives an update', async () => {
    const root = await open(vanilla);
    await until(() => expect(titlesOf(vanilla, root)).to.have.length(4));
    const input = root.querySelector('input')!;
    input.value = 'A draft';
    rowsOf(vanilla, root)[3]!.querySelector('button')!.click();
    await until(() => expect(titlesOf(vanilla, root)).to.have.length(3));
    expect(root.querySelector('input') === input, 'the same input').to.equal(true);
    expect(input.value).to.equal('A draft');
  });

  it('the plain page keeps the rows that stay, and names each row by its todo', async () => {
    const root = await open(plain);
    await until(() => expect(titlesOf(plain, root)).to.have.length(4));
    const first = rowsOf(plain, root)[0];
    add(root, 'Buy bread');
    await until(() => expect(titlesOf(plain, root)).to.have.length(5));
    expect(rowsOf(plain, root)[0] === first, 'the first row is the same node').to.equal(true);
    const created = (await (await fetch('/api/todos?userId=1')).json()) as { id: string }[];
    const remove = rowsOf(plain, root)[4]!.querySelector('button')!;
    expect(remove.dataset.id).to.equal(created[4]!.id);
    // The write's error shows in the page's own alert, hidden until a write fails.
    const alert = root.querySelector<HTMLElement>('#write-error')!;
    expect(alert.hidden).to.equal(true);
    add(root, '');
    await until(() => expect(alert.textContent).to.include('must not be empty'));
    expect(alert.hidden).to.equal(false);
  });
});
