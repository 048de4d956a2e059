// <resource-read> against the real Controller and a fake server answered by hand: reads named by
// registerReads, params from attributes, the templates of each state filled by field path, rows
// kept by pk, what is never written, the errors, and letting go on disconnect.
import { expect, fixture, html, aTimeout } from '@open-wc/testing';
import '../lit/define-provider.js';
import { until } from '../lit/test-utils/reader.js';
import { Controller } from '../core/controller/controller.js';
import { Todo, TodoResource, developing, setup } from '../elements/test-utils/fixtures.js';
import { RestEndpoint } from '../core/rest/rest-endpoint.js';
import { ResourceReadElement, registerReads } from './index.js';
import '../boundary/index.js';
import type { ResourceBoundary } from '../boundary/index.js';

/** A list read that fails at once (reads are otherwise tried three times). */
const TodoOnce = TodoResource.getList.extend({ retry: 0 });

/** A plain array of todos (a Collection would list each todo once). */
const todoArray = new RestEndpoint({ path: '/array', schema: [Todo] });

registerReads({
  todos: TodoResource.getList,
  todo: TodoResource.get,
  todosOnce: TodoOnce,
  array: todoArray,
  quickToExpire: TodoResource.getList.extend({ dataExpiryLength: 1 }),
});

async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await aTimeout(0);
}

/** `markup` in a provider of `controller`, in the page; its first <resource-read>. */
async function mount(
  controller: Controller | undefined,
  markup: string,
): Promise<ResourceReadElement> {
  const host = await fixture<HTMLDivElement>(html`<div></div>`);
  if (controller) {
    const provider = document.createElement('resource-provider');
    provider.controller = controller;
    provider.innerHTML = markup;
    host.append(provider);
  } else host.innerHTML = markup;
  await settle();
  return host.querySelector('resource-read')!;
}

/** Development mode while the test runs (see src/elements/elements.browser.test.ts). */
/** Counts the element's resource-render events, heard where they bubble to (its parent). */
function renders(element: ResourceReadElement): { count: number; statuses: string[] } {
  const seen = { count: 0, statuses: [] as string[] };
  element.parentNode!.addEventListener('resource-render', (event) => {
    if (event.target !== element) return;
    seen.count++;
    seen.statuses.push((event as HTMLElementEventMap['resource-render']).detail.status);
  });
  return seen;
}

/** Replaces console.warn while the test runs; returns what it was given. */
function watchWarnings(): { seen: string[]; stop(): void } {
  const seen: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => seen.push(args.join(' '));
  return { seen, stop: () => (console.warn = warn) };
}

const LIST = `
  <resource-read endpoint="todos" param-user-id="1">
    <template data-for="pending"><p class="pending">Loading…</p></template>
    <template data-for="error"><p role="alert" data-field="message"></p></template>
    <template data-for="complete"><h2><span data-field="length"></span> todos</h2><ul data-items></ul></template>
    <template data-for="item"><li><a data-field="title" data-field-href="url"></a><button data-field-data-id="id" data-field-hidden="completed">Done</button></li></template>
    <template data-for="empty"><li class="empty">Nothing to do.</li></template>
  </resource-read>`;

const items = (element: Element) =>
  [...element.querySelectorAll('li:not(.empty)')].map((li) => li.textContent);

describe('<resource-read>', () => {
  it('is defined by importing resource-elements/html', () => {
    expect(customElements.get('resource-read') === ResourceReadElement).to.equal(true);
  });

  it('shows pending, then each item filled by field path, in the complete clone', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, LIST);
    expect(element.querySelector('.pending')?.textContent).to.equal('Loading…');
    expect(element.status).to.equal('pending');
    server.take('GET /todos?userId=1').respond(200, [
      { id: '1', title: 'a', url: '/todos/1' },
      { id: '2', title: 'b', url: '/todos/2', completed: true },
    ]);
    await until(() => expect(items(element)).to.deep.equal(['aDone', 'bDone']));
    expect(element.querySelectorAll('.pending')).to.have.length(0);
    expect(element.querySelector('h2')!.textContent).to.equal('2 todos');
    // The rows are in the complete clone's [data-items] element.
    expect(element.querySelectorAll('ul > li')).to.have.length(2);
    const [first, second] = element.querySelectorAll('li');
    expect(first!.querySelector('a')!.getAttribute('href')).to.equal('/todos/1');
    expect(first!.querySelector('button')!.dataset.id).to.equal('1');
    expect(first!.querySelector('button')!.hasAttribute('hidden')).to.equal(false);
    expect(second!.querySelector('button')!.hasAttribute('hidden')).to.equal(true);
    expect(element.status).to.equal('complete');
    expect((element.value as Todo[]).map((todo) => todo.id)).to.deep.equal(['1', '2']);
    expect(element.error).to.equal(undefined);
  });

  it('puts the rows in the element itself when no complete template marks a place', async () => {
    const { server, controller } = setup();
    const element = await mount(
      controller,
      `<resource-read endpoint="todos"><template data-for="item"><p data-field="title"></p></template></resource-read>`,
    );
    server.take('GET /todos').respond(200, [{ id: '1', title: 'a' }]);
    await until(() => expect(element.querySelector(':scope > p')?.textContent).to.equal('a'));
  });

  it('puts table rows in a table', async () => {
    const { server, controller } = setup();
    const element = await mount(
      controller,
      `<resource-read endpoint="todos">
        <template data-for="complete"><table><tbody data-items></tbody></table></template>
        <template data-for="item"><tr><td data-field="id"></td><td data-field="title"></td></tr></template>
      </resource-read>`,
    );
    server.take('GET /todos').respond(200, [{ id: '1', title: 'a' }]);
    await until(() =>
      expect(
        [...element.querySelectorAll('table > tbody > tr > td')].map((td) => td.textContent),
      ).to.deep.equal(['1', 'a']),
    );
  });

  it('fills the complete template from a single value', async () => {
    const { server, controller } = setup();
    const element = await mount(
      controller,
      `<resource-read endpoint="todo" param-id="7">
        <template data-for="complete"><h1 data-field="title"></h1><p data-field="author.name"></p></template>
      </resource-read>`,
    );
    server.take('GET /todos/7').respond(200, { id: '7', title: 'Seven', author: { name: 'Ann' } });
    await until(() => expect(element.querySelector('h1')?.textContent).to.equal('Seven'));
    expect(element.querySelector('p')!.textContent).to.equal('Ann');
  });

  it('renders once per change of state, and fires resource-render each time', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, LIST);
    const seen = renders(element);
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', title: 'a' }]);
    await until(() => expect(seen.statuses).to.deep.equal(['complete']));
    const refetched = element.refetch();
    await settle();
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', title: 'a' }]);
    await refetched;
    await settle();
    expect(seen.count).to.equal(1);
    controller.set(Todo, { id: '1', title: 'a2' });
    await until(() => expect(items(element)).to.deep.equal(['a2Done']));
    expect(seen.count).to.equal(2);
  });

  it('reads the param-* attributes, and reads again when they change', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, LIST);
    expect(server.calls.map((r) => r.url)).to.deep.equal(['/todos?userId=1']);
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', title: 'a' }]);
    await until(() => expect(items(element)).to.deep.equal(['aDone']));
    element.setAttribute('param-user-id', '2');
    await until(() => expect(element.querySelector('.pending')).to.not.equal(null));
    server.take('GET /todos?userId=2').respond(200, [{ id: '3', title: 'c' }]);
    await until(() => expect(items(element)).to.deep.equal(['cDone']));
    element.setAttribute('param-completed', 'false');
    await settle();
    server.take('GET /todos?userId=2&completed=false').respond(200, []);
    await until(() => expect(element.querySelector('.empty')).to.not.equal(null));
  });

  it('sends nothing when an attribute that is not a param changes, even for stale data', async () => {
    const { server, controller } = setup();
    const element = await mount(
      controller,
      '<resource-read endpoint="quickToExpire"></resource-read>',
    );
    server.take('GET /todos').respond(200, []);
    await until(() => expect(element.status).to.equal('complete'));
    await aTimeout(20);
    element.setAttribute('class', 'x');
    element.setAttribute('param-user-id', '1');
    element.removeAttribute('param-user-id');
    await settle();
    expect(server.calls).to.have.length(1);
  });

  it('reads another endpoint when its endpoint attribute changes', async () => {
    const { server, controller } = setup();
    const element = await mount(
      controller,
      `<resource-read endpoint="todo" param-id="1"><template data-for="complete"><p data-field="title"></p></template></resource-read>`,
    );
    server.take('GET /todos/1').respond(200, { id: '1', title: 'one' });
    await until(() => expect(element.textContent!.trim()).to.equal('one'));
    element.removeAttribute('param-id');
    element.setAttribute('endpoint', 'todos');
    await settle();
    server.take('GET /todos').respond(200, []);
    await until(() => expect(element.value).to.deep.equal([]));
    expect(controller.stats()).to.deep.include({ subscriptions: 1 });
  });

  it('shows no rows for a single value read after a list, with no pending state between', async () => {
    const { server, controller } = setup();
    const element = await mount(
      controller,
      `<resource-read endpoint="todos">
        <template data-for="complete"><h2 data-field="title"></h2><ul data-items></ul></template>
        <template data-for="item"><li data-field="title"></li></template>
      </resource-read>`,
    );
    server.take('GET /todos').respond(200, [{ id: '1', title: 'a' }]);
    await until(() => expect(element.querySelectorAll('li')).to.have.length(1));
    const seen = renders(element);
    // Todo 1 is in the store: the read of it is complete at once.
    element.setAttribute('endpoint', 'todo');
    element.setAttribute('param-id', '1');
    await until(() => expect(element.querySelector('h2')!.textContent).to.equal('a'));
    expect(seen.statuses).to.deep.equal(['complete']);
    expect(element.querySelectorAll('li')).to.have.length(0);
  });

  it('shows the empty template for an empty list, in place of the rows', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, LIST);
    server.take('GET /todos?userId=1').respond(200, []);
    await until(() => expect(element.querySelector('ul > .empty')).to.not.equal(null));
    expect(element.querySelector('h2')!.textContent).to.equal('0 todos');
    const pushed = controller.fetch(TodoResource.getList.push, { userId: 1, title: 'new' });
    await settle();
    server.take('POST /todos').respond(201, { id: '1', userId: 1, title: 'new' });
    await pushed;
    await until(() => expect(items(element)).to.deep.equal(['newDone']));
    expect(element.querySelectorAll('.empty')).to.have.length(0);
  });

  it('keeps each row by pk: an edit fills its row in place, and focus stays', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, LIST);
    server.take('GET /todos?userId=1').respond(200, [
      { id: '1', title: 'a' },
      { id: '2', title: 'b' },
      { id: '3', title: 'c' },
    ]);
    await until(() => expect(items(element)).to.have.length(3));
    const [one, two, three] = element.querySelectorAll('li');
    const button = two!.querySelector('button')!;
    button.focus();
    const list = element.querySelector('ul')!;
    controller.set(Todo, { id: '2', title: 'b, edited' });
    await until(() => expect(items(element)).to.deep.equal(['aDone', 'b, editedDone', 'cDone']));
    const rows = element.querySelectorAll('li');
    expect(rows[0] === one && rows[1] === two && rows[2] === three, 'the same rows').to.equal(true);
    expect(element.querySelector('ul') === list, 'the same list').to.equal(true);
    expect(document.activeElement === button, 'the focus stays').to.equal(true);
  });

  it('keeps the focus of a row that moves, where the browser moves nodes in place', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, LIST);
    const list = [
      { id: '1', title: 'a' },
      { id: '2', title: 'b' },
      { id: '3', title: 'c' },
    ];
    server.take('GET /todos?userId=1').respond(200, list);
    await until(() => expect(items(element)).to.have.length(3));
    const button = element.querySelectorAll('li')[0]!.querySelector('button')!;
    button.focus();
    // The list comes back in another order: the first row moves to the end.
    void element.refetch();
    await until(() => expect(server.waiting).to.have.length(1));
    server.take('GET /todos?userId=1').respond(200, [list[1], list[2], list[0]]);
    await until(() => expect(items(element)).to.deep.equal(['bDone', 'cDone', 'aDone']));
    expect(element.querySelectorAll('li')[2]!.contains(button), 'the same row').to.equal(true);
    const movesInPlace = 'moveBefore' in Element.prototype;
    expect(document.activeElement === button, 'the focus stays').to.equal(movesInPlace);
  });

  it('adds, drops and moves rows without rebuilding the others', async () => {
    const { server, controller } = setup();
    const element = await mount(
      controller,
      `<resource-read endpoint="todos"><template data-for="item"><p data-field="title"></p></template></resource-read>`,
    );
    server.take('GET /todos').respond(200, [
      { id: '1', title: 'a' },
      { id: '2', title: 'b' },
      { id: '3', title: 'c' },
    ]);
    await until(() => expect(element.querySelectorAll('p')).to.have.length(3));
    const [a, b, c] = element.querySelectorAll('p');
    const added: Node[] = [];
    const removed: Node[] = [];
    const watch = new MutationObserver((records) => {
      for (const record of records) {
        added.push(...record.addedNodes);
        removed.push(...record.removedNodes);
      }
    });
    watch.observe(element, { childList: true });
    const refetched = element.refetch();
    await settle();
    server.take('GET /todos').respond(200, [
      { id: '3', title: 'c' },
      { id: '1', title: 'a' },
      { id: '4', title: 'd' },
    ]);
    await refetched;
    await until(() =>
      expect([...element.querySelectorAll('p')].map((p) => p.textContent)).to.deep.equal([
        'c',
        'a',
        'd',
      ]),
    );
    watch.disconnect();
    const [first, second] = element.querySelectorAll('p');
    expect(first === c && second === a, 'c and a are the same nodes').to.equal(true);
    // b left, d came, a moved after c; c was not touched.
    expect(removed.includes(b) && removed.includes(a) && !removed.includes(c)).to.equal(true);
    expect(added.filter((node) => node.nodeType === Node.ELEMENT_NODE)).to.have.length(2);
  });

  it('shows an item listed twice twice', async () => {
    const { server, controller } = setup();
    const element = await mount(
      controller,
      `<resource-read endpoint="array"><template data-for="item"><p data-field="title"></p></template></resource-read>`,
    );
    server.take('GET /array').respond(200, [
      { id: '1', title: 'a' },
      { id: '1', title: 'a' },
    ]);
    await until(() => expect(element.querySelectorAll('p')).to.have.length(2));
    controller.set(Todo, { id: '1', title: 'b' });
    await until(() =>
      expect([...element.querySelectorAll('p')].map((p) => p.textContent)).to.deep.equal([
        'b',
        'b',
      ]),
    );
  });

  it('shows the error template filled from the error, and its message without one', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, LIST.replace('"todos"', '"todosOnce"'));
    server.take('GET /todos?userId=1').respond(500, { message: 'Broken' });
    await until(() => expect(element.status).to.equal('error'));
    const alert = element.querySelector('[role=alert]')!;
    expect(alert.textContent).to.equal((element.error as Error).message);
    expect(alert.textContent).to.contain('GET /todos?userId=1').and.contain('Broken');

    const bare = await mount(
      controller,
      `<resource-read endpoint="todosOnce" param-id="9"></resource-read>`,
    );
    await settle();
    server.take('GET /todos?id=9').respond(500, { message: 'Down' });
    await until(() => expect(bare.textContent).to.contain('Down'));
    expect(bare.textContent).to.equal((bare.error as Error).message);
  });

  it('names itself and the unknown endpoint name, and reads once the name is registered', async () => {
    const { server, controller } = setup();
    const stop = developing();
    let element: ResourceReadElement;
    try {
      element = await mount(
        controller,
        `<resource-read endpoint="later"><template data-for="complete"><p data-field="length"></p></template></resource-read>`,
      );
    } finally {
      stop();
    }
    expect(element.status).to.equal('error');
    expect((element.error as Error).message).to.match(
      /^<resource-read> found no read registered as "later": register its endpoint with registerReads\(\{ "later": endpoint \}\) \(registered: todos, todo, .*\)\.$/,
    );
    expect(element.textContent).to.contain('found no read registered as "later"');
    registerReads({ later: TodoResource.getList });
    await settle();
    server.take('GET /todos').respond(200, [{ id: '1' }]);
    await until(() => expect(element.querySelector('p')?.textContent).to.equal('1'));
  });

  it('keeps the facts of the unknown name in production', async () => {
    const element = await mount(
      setup().controller,
      `<resource-read endpoint="nowhere"></resource-read>`,
    );
    expect((element.error as Error).message).to.equal(
      '<resource-read> found no read registered as "nowhere".',
    );
  });

  it('waits for a name registered later in the same task, without an error', async () => {
    const { server, controller } = setup();
    const provider = document.createElement('resource-provider');
    provider.controller = controller;
    provider.innerHTML = '<resource-read endpoint="sameTask"></resource-read>';
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    host.append(provider);
    const element = provider.querySelector('resource-read')!;
    const seen = renders(element);
    registerReads({ sameTask: TodoResource.getList });
    await settle();
    server.take('GET /todos').respond(200, []);
    await until(() => expect(element.status).to.equal('complete'));
    expect(seen.statuses).to.deep.equal(['pending', 'complete']);
  });

  it('gives the missing-provider error with no provider above', async () => {
    const element = await mount(undefined, `<resource-read endpoint="todos"></resource-read>`);
    expect(element.status).to.equal('error');
    expect((element.error as Error).message).to.equal(
      '<resource-read> found no <resource-provider> above it.',
    );
  });

  it('lets go of its read when removed, and shows the same without a render when moved', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, LIST);
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', title: 'a' }]);
    await until(() => expect(items(element)).to.deep.equal(['aDone']));
    const seen = renders(element);
    const row = element.querySelector('li');
    const provider = element.parentElement!;
    provider.append(document.createElement('div'), element);
    await settle();
    expect(seen.count).to.equal(0);
    expect(element.querySelector('li') === row, 'the same row').to.equal(true);
    expect(controller.stats()).to.deep.include({ subscriptions: 1 });
    element.remove();
    await settle();
    expect(controller.stats()).to.deep.include({ subscriptions: 0 });
    element.setAttribute('param-user-id', '2');
    await settle();
    expect(server.calls).to.have.length(1);
  });
});

describe('<resource-read> under a <resource-boundary>', () => {
  /** `markup` in a boundary (no delay) in a provider of `controller`: the boundary. */
  async function bounded(controller: Controller, markup: string): Promise<ResourceBoundary> {
    await mount(controller, `<resource-boundary delay="0">${markup}</resource-boundary>`);
    return document.querySelector('resource-boundary')!;
  }
  const part = (boundary: ResourceBoundary, name: string) =>
    boundary.shadowRoot!.querySelector(`[part="${name}"]`)!;

  it('has the boundary wait while it has nothing to show, then show the content', async () => {
    const { server, controller } = setup();
    const boundary = await bounded(controller, LIST);
    await until(() => expect(boundary.waiting).to.equal(true));
    expect(part(boundary, 'fallback').hasAttribute('hidden')).to.equal(false);
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', userId: 1, title: 'a' }]);
    await until(() => expect(boundary.waiting).to.equal(false));
    expect(boundary.errors).to.deep.equal([]);
    expect(items(boundary.querySelector('resource-read')!)).to.deep.equal(['aDone']);
  });

  it('leaves a failure to the boundary without an error template; Retry reads again', async () => {
    const { server, controller } = setup();
    const boundary = await bounded(
      controller,
      `<resource-read endpoint="todosOnce" param-user-id="1">
        <template data-for="complete"><p data-field="length"></p></template>
      </resource-read>`,
    );
    server.take('GET /todos?userId=1').respond(500, { message: 'Broken' });
    await until(() => expect(boundary.errors).to.have.length(1));
    expect(part(boundary, 'error').textContent).to.contain('Broken');
    (part(boundary, 'retry') as HTMLButtonElement).click();
    await until(() => expect(server.waiting.map((call) => call.url)).to.include('/todos?userId=1'));
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', userId: 1, title: 'a' }]);
    await until(() => expect(boundary.querySelector('p')?.textContent).to.equal('1'));
    expect(boundary.errors).to.have.length(0);
  });

  it('keeps a failure to itself when an error template shows it', async () => {
    const { server, controller } = setup();
    const boundary = await bounded(controller, LIST.replace('"todos"', '"todosOnce"'));
    server.take('GET /todos?userId=1').respond(500, { message: 'Broken' });
    const element = boundary.querySelector('resource-read')!;
    await until(() => expect(element.status).to.equal('error'));
    await until(() => expect(boundary.waiting).to.equal(false));
    expect(boundary.errors).to.deep.equal([]);
    expect(element.querySelector('[role=alert]')!.textContent).to.contain('Broken');
  });
});

describe('<resource-read> templates: what goes in and what never does', () => {
  const one = (markup: string) =>
    `<resource-read endpoint="todo" param-id="1"><template data-for="complete">${markup}</template></resource-read>`;

  async function show(markup: string, todo: Record<string, unknown>) {
    const { server, controller } = setup();
    const element = await mount(controller, one(markup));
    server.take('GET /todos/1').respond(200, { id: '1', ...todo });
    await until(() => expect(element.status).to.equal('complete'));
    return { element, controller };
  }

  it('writes values as text, never as markup', async () => {
    const { element } = await show('<p data-field="title"></p>', {
      title: '<img src=x onerror="window.__pwned=1">',
    });
    expect(element.querySelectorAll('img')).to.have.length(0);
    expect(element.querySelector('p')!.textContent).to.equal(
      '<img src=x onerror="window.__pwned=1">',
    );
  });

  it('never writes an event handler or srcdoc, nor a javascript: URL', async () => {
    const { element } = await show(
      '<a data-field-onclick="title" data-field-ONMOUSEOVER="title" data-field-href="url" data-field-title="title"></a><iframe data-field-srcdoc="title"></iframe>',
      { title: 'alert(1)', url: ' \tjava\nscript:alert(1)' },
    );
    const link = element.querySelector('a')!;
    expect(link.hasAttribute('onclick')).to.equal(false);
    expect(link.hasAttribute('onmouseover')).to.equal(false);
    expect(link.hasAttribute('href')).to.equal(false);
    expect(link.getAttribute('title')).to.equal('alert(1)');
    expect(element.querySelector('iframe')!.hasAttribute('srcdoc')).to.equal(false);
  });

  it('never fills a script, neither its text nor its src', async () => {
    const page = window as { scripted?: boolean; loaded?: boolean };
    const { element } = await show(
      '<script data-field="title"></script><script data-field-src="url"></script>',
      {
        title: 'window.scripted = true',
        url: 'data:text/javascript,window.loaded = true',
      },
    );
    await settle();
    expect(page.scripted).to.equal(undefined);
    expect(page.loaded).to.equal(undefined);
    const [text, source] = element.querySelectorAll('script');
    expect(text!.textContent).to.equal('');
    expect(source!.hasAttribute('src')).to.equal(false);
  });

  it('sets a boolean attribute by truthiness where the element has it as a boolean', async () => {
    const { element, controller } = await show(
      '<button data-field-disabled="userId" data-field-data-done="completed" data-field-aria-pressed="completed"></button>',
      { userId: 0, completed: false },
    );
    const button = element.querySelector('button')!;
    expect(button.hasAttribute('disabled')).to.equal(false);
    expect(button.hasAttribute('data-done')).to.equal(false);
    expect(button.getAttribute('aria-pressed')).to.equal('false');
    controller.set(Todo, { id: '1', userId: 3, completed: true });
    await until(() => expect(button.getAttribute('disabled')).to.equal(''));
    expect(button.getAttribute('data-done')).to.equal('');
    expect(button.getAttribute('aria-pressed')).to.equal('true');
  });

  it('sets the live checked and value of a control when its field changed, only then', async () => {
    const { element, controller } = await show(
      '<input type="checkbox" data-field-checked="completed"><input data-field-value="title">',
      { completed: false, title: 'a' },
    );
    const [box, input] = element.querySelectorAll('input');
    box!.click();
    input!.value = 'typed';
    expect(box!.checked).to.equal(true);
    controller.set(Todo, { id: '1', completed: true, title: 'a' });
    await until(() => expect(box!.hasAttribute('checked')).to.equal(true));
    // The title did not change: what the user typed stays.
    expect(input!.value).to.equal('typed');
    controller.set(Todo, { id: '1', completed: false, title: 'b' });
    await until(() => expect(box!.hasAttribute('checked')).to.equal(false));
    expect(box!.checked).to.equal(false);
    expect(input!.value).to.equal('b');
  });

  it('leaves the text of a field that did not change as it was', async () => {
    const { element, controller } = await show(
      '<p data-field="title"></p><p data-field="userId"></p>',
      {
        title: 'a',
        userId: 1,
      },
    );
    const [title, user] = element.querySelectorAll('p');
    const text = user!.firstChild;
    controller.set(Todo, { id: '1', title: 'b', userId: 1 });
    await until(() => expect(title!.textContent).to.equal('b'));
    expect(user!.firstChild === text, 'the same text node').to.equal(true);
  });

  it('warns in development of what it left out', async () => {
    const warnings = watchWarnings();
    const stop = developing();
    try {
      await show('<a data-field-onclick="title" data-field-href="url"></a>', {
        title: 'x',
        url: 'javascript:alert(1)',
      });
    } finally {
      stop();
      warnings.stop();
    }
    expect(warnings.seen).to.deep.equal([
      'data-field-onclick="title" is left out: data never goes into a script, an event handler or srcdoc.',
      'data-field-href="url" gave a javascript: URL; the attribute is left out.',
    ]);
  });

  it("gives an item template's own <resource-read> its params from the item", async () => {
    const { server, controller } = setup();
    const element = await mount(
      controller,
      `<resource-read endpoint="todos">
        <template data-for="item"><section><resource-read endpoint="todo" data-field-param-id="id"><template data-for="complete"><h3 data-field="title"></h3></template></resource-read></section></template>
      </resource-read>`,
    );
    server.take('GET /todos').respond(200, [
      { id: '1', title: 'one' },
      { id: '2', title: 'two' },
    ]);
    await until(() =>
      expect([...element.querySelectorAll('h3')].map((h) => h.textContent)).to.deep.equal([
        'one',
        'two',
      ]),
    );
    // Each todo is in the store already: the rows' reads send nothing.
    expect(server.calls.map((r) => r.url)).to.deep.equal(['/todos']);
  });
});

describe('registerReads in development', () => {
  it('refuses what is not an endpoint, a mutation, and a second endpoint under a name', () => {
    const stop = developing();
    try {
      expect(() => registerReads({ hook: (() => TodoResource.get) as never })).to.throw(
        'registerReads: "hook" is not an endpoint',
      );
      expect(() => registerReads({ add: TodoResource.getList.push })).to.throw(
        /^registerReads: "add" is .*, a mutation/,
      );
      expect(() => registerReads({ todos: TodoResource.get })).to.throw(
        /^registerReads: "todos" is already registered for /,
      );
      registerReads({ todos: TodoResource.getList });
    } finally {
      stop();
    }
  });
});

describe('registerReads', () => {
  it('keeps the first endpoint of a name in production', async () => {
    registerReads({ todos: TodoResource.get });
    const { server, controller } = setup();
    await mount(controller, `<resource-read endpoint="todos"></resource-read>`);
    expect(server.calls.map((r) => r.url)).to.deep.equal(['/todos']);
  });

  it('is one registry for every copy of the module on the page', async () => {
    // A second copy: the same module at another URL, as a second bundle on the page would be.
    const copy = (await import(new URL('./reads.ts?copy', import.meta.url).href)) as {
      registerReads: typeof registerReads;
    };
    expect(copy.registerReads).to.not.equal(registerReads);
    copy.registerReads({ fromCopy: TodoResource.get });
    const { server, controller } = setup();
    await mount(controller, `<resource-read endpoint="fromCopy" param-id="5"></resource-read>`);
    expect(server.calls.map((r) => r.url)).to.deep.equal(['/todos/5']);
  });
});
