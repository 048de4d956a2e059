// The guide's plain-HTML recipe (docs/guide/without-lit.md, "A todo list in plain HTML"), run as
// printed: web-test-runner.config.mjs serves the guide's named blocks at /guide/ (plain-todos.html,
// plain-todos.ts, and the resources.ts it imports), and this test loads that page in an iframe
// against the demo's API (the same /api/ routes `npm start` serves), then lists, adds and deletes
// a todo the way a user would.
import { expect } from '@open-wc/testing';
import { until as waitUntil } from '../../src/lit/test-utils/reader.js';

const until = (check: () => void) => waitUntil(check, 4000);

let frame: HTMLIFrameElement | undefined;

/** The recipe's page, once its list shows. */
async function openPage(): Promise<Document> {
  frame = document.createElement('iframe');
  frame.src = '/guide/plain-todos.html';
  document.body.append(frame);
  await until(() =>
    expect(
      frame!.contentDocument?.querySelectorAll('resource-read li').length,
      'the list rendered inside <resource-provider>',
    ).to.be.above(0),
  );
  return frame!.contentDocument!;
}

const rows = (page: Document) => [...page.querySelectorAll('resource-read li')];
const titles = (page: Document) =>
  rows(page).map((li) => li.querySelector('[data-field=title]')!.textContent);

describe('the plain-HTML recipe of the guide', () => {
  beforeEach(async () => {
    await fetch('/api/__reset', { method: 'POST' });
  });
  afterEach(async () => {
    frame?.remove();
    frame = undefined;
    await fetch('/api/__reset', { method: 'POST' });
  });

  it('lists the todos of user 1, adds one with the form and deletes it', async () => {
    const page = await openPage();
    await until(() =>
      expect(titles(page)).to.deep.equal([
        'Write the spec',
        'Review pull requests',
        'Plan the release',
        'Fix the flaky test',
      ]),
    );
    const first = rows(page)[0];

    const input = page.querySelector('input')!;
    input.value = 'Buy bread';
    input.dispatchEvent(new Event('input'));
    page.querySelector<HTMLButtonElement>('form button')!.click();
    await until(() => expect(titles(page)).to.have.length(5));
    expect(titles(page)[4]).to.equal('Buy bread');
    await until(() => expect(input.value).to.equal(''));
    // The rows that were there stay (the page does not rebuild the list).
    expect(rows(page)[0] === first, 'the first row is the same node').to.equal(true);
    const created = (await (await fetch('/api/todos?userId=1')).json()) as { id: string }[];
    expect(created).to.have.length(5);
    const id = created[4]!.id;

    const remove = rows(page)[4]!.querySelector('button')!;
    expect(remove.dataset.id).to.equal(id);
    remove.click();
    await until(() => expect(titles(page)).to.have.length(4));
    expect(titles(page)).to.not.include('Buy bread');
    expect((await fetch(`/api/todos/${id}`)).status).to.equal(404);
  });

  it("shows the server's error when the title is empty", async () => {
    const page = await openPage();
    await until(() => expect(titles(page)).to.have.length(4));
    page.querySelector<HTMLButtonElement>('form button')!.click();
    const alert = page.getElementById('write-error')!;
    await until(() => expect(alert.textContent).to.include('must not be empty'));
    expect(alert.hidden).to.equal(false);
    expect(titles(page)).to.have.length(4);
  });
});
