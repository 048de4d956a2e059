// The guide's FAST recipe (docs/guide/without-lit.md, "FAST"), run as printed:
// web-test-runner.config.mjs serves its fast-todos.html and fast-todos.ts at /guide/ straight from
// the guide's code blocks (with the guide's resources.ts), and this test loads that page in an
// iframe against the demo's API (the same /api/ routes `npm start` serves), then lists, adds and
// deletes a todo the way a user would.
import { expect } from '@open-wc/testing';
import { until as waitUntil } from '../../src/lit/test-utils/reader.js';

const until = (check: () => void) => waitUntil(check, 4000);

let frame: HTMLIFrameElement | undefined;

async function openRecipe(): Promise<ShadowRoot> {
  frame = document.createElement('iframe');
  frame.src = '/guide/fast-todos.html';
  document.body.append(frame);
  let root: ShadowRoot | null | undefined;
  await until(() => {
    root = frame!.contentDocument?.querySelector('fast-todos')?.shadowRoot;
    expect(root, 'fast-todos rendered inside <resource-provider>').to.be.instanceOf(
      (frame!.contentWindow as unknown as typeof globalThis).ShadowRoot,
    );
  });
  return root!;
}

const titles = (root: ShadowRoot) =>
  [...root.querySelectorAll('li')].map((li) => li.textContent!.replace('Delete', '').trim());

describe("the guide's FAST todo list", () => {
  beforeEach(async () => {
    await fetch('/api/__reset', { method: 'POST' });
  });
  afterEach(async () => {
    frame?.remove();
    frame = undefined;
    await fetch('/api/__reset', { method: 'POST' });
  });

  it('lists the todos of user 1, adds one with the form and deletes it', async () => {
    const root = await openRecipe();
    await until(() =>
      expect(titles(root)).to.deep.equal([
        'Write the spec',
        'Review pull requests',
        'Plan the release',
        'Fix the flaky test',
      ]),
    );

    const input = root.querySelector('input')!;
    input.value = 'Buy bread';
    root.querySelector<HTMLButtonElement>('form button')!.click();
    await until(() => expect(titles(root)).to.have.length(5));
    expect(titles(root)[4]).to.equal('Buy bread');
    await until(() => expect(input.value).to.equal(''));
    // The page did not navigate: the submit's default was prevented.
    expect(frame!.contentDocument!.querySelector('fast-todos')!.shadowRoot).to.equal(root);
    const created = (await (await fetch('/api/todos?userId=1')).json()) as { id: string }[];
    expect(created).to.have.length(5);
    const id = created[4]!.id;

    root.querySelectorAll('li')[4]!.querySelector('button')!.click();
    await until(() => expect(titles(root)).to.have.length(4));
    expect(titles(root)).to.not.include('Buy bread');
    expect((await fetch(`/api/todos/${id}`)).status).to.equal(404);
  });

  it("shows the server's error when the title is empty", async () => {
    const root = await openRecipe();
    await until(() => expect(titles(root)).to.have.length(4));
    root.querySelector<HTMLButtonElement>('form button')!.click();
    await until(() =>
      expect(root.querySelector('[role=alert]')?.textContent).to.include('must not be empty'),
    );
    expect(titles(root)).to.have.length(4);
  });

  it("lists another user's todos when its user-id attribute changes", async () => {
    // The users' lists have the same titles: user 2 gets one of its own first.
    await fetch('/api/todos', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Only for user 2', userId: 2 }),
    });
    const root = await openRecipe();
    await until(() => expect(titles(root)).to.have.length(4));
    frame!.contentDocument!.querySelector('fast-todos')!.setAttribute('user-id', '2');
    await until(() => expect(titles(root)).to.have.length(5));
    expect(titles(root)[4]).to.equal('Only for user 2');
  });
});
