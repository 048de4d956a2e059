// A burst of 5,000 pushed updates (a replay after reconnecting) to a mounted list of 1,000 rows
// (ResourceController over getList) in the browser. Asserts what does not depend on the machine:
// every update lands, in far fewer store commits than messages. Prints what does (not a timed
// test): total time, the longest task (PerformanceObserver 'longtask', which Chromium reports
// from 50 ms) and, where the manager's timers run the flushes, the longest flush with the render
// it causes.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, render } from 'lit';
import '../src/lit/define-provider.js';
import { ResourceController } from '../src/lit/resource-controller.js';
import { Controller, Entity, createResource } from '../src/core/index.js';
import type { Timers } from '../src/core/index.js';
import { PushManager } from '../src/managers/index.js';
import type { PushHandlers } from '../src/managers/index.js';

const ROWS = 1000;
const MESSAGES = 5000;

class Row extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'Row';
}

const RowResource = createResource({
  urlPrefix: 'https://burst.test',
  path: '/rows/:id',
  schema: Row,
});

class BurstList extends LitElement {
  renders = 0;
  readonly rows = new ResourceController(this, RowResource.getList, () => ({}));
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    this.renders++;
    return this.rows.render({
      pending: () => html`<p>pending</p>`,
      complete: (rows) =>
        html`<ul>
          ${rows.map((row) => html`<li>${row.title}</li>`)}
        </ul>`,
    });
  }
}
customElements.define('burst-list', BurstList);

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The host's timers; each callback's run is timed until `settled()` (the list's render it caused,
 * which runs in the microtasks of the same task).
 */
function timedTimers(durations: number[], settled: () => Promise<unknown>): Timers {
  return {
    setTimeout: (callback, ms) =>
      setTimeout(() => {
        const start = performance.now();
        callback();
        void settled().then(() => durations.push(performance.now() - start));
      }, ms),
    clearTimeout: (handle) => clearTimeout(handle as number),
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Mounts the list, has `deliver` hand the manager the burst, waits until the list shows the last
 * update; prints the figures and returns the commit count and the titles shown.
 */
async function measure(
  label: string,
  deliver: (message: (i: number) => void) => Promise<void> | void,
): Promise<{ commits: number; titles: (string | null)[] }> {
  const rows = Array.from({ length: ROWS }, (_, i) => ({ id: String(i), title: `row ${i}` }));
  const controller = new Controller({
    fetch: async () =>
      new Response(JSON.stringify(rows), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
  });
  let handlers: PushHandlers | undefined;
  // The list the flushes render, once mounted.
  const mounted: { list?: BurstList } = {};
  const flushes: number[] = [];
  const push = new PushManager({
    source: (given) => {
      handlers = given;
      return { close() {} };
    },
    entities: { Row },
    timers: timedTimers(flushes, () => mounted.list!.updateComplete),
  });
  const detach = push.attach(controller);

  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  render(html`<burst-list></burst-list>`, provider);
  const host = await fixture<HTMLDivElement>(html`<div></div>`);
  host.append(provider);
  const list = (mounted.list = provider.querySelector('burst-list') as BurstList);
  for (let i = 0; i < 200 && list.querySelectorAll('li').length !== ROWS; i++) await nextTask();
  expect(list.querySelectorAll('li').length).to.equal(ROWS, list.textContent ?? '');

  let commits = 0;
  const stopCounting = controller.addListener(() => void commits++);
  const longTasks: number[] = [];
  const observer =
    PerformanceObserver.supportedEntryTypes.includes('longtask') &&
    new PerformanceObserver((entries) => {
      for (const entry of entries.getEntries()) longTasks.push(entry.duration);
    });
  if (observer) observer.observe({ type: 'longtask' });
  const rendersBefore = list.renders;
  const last = `pushed ${MESSAGES - 1}`;
  const lastRow = (MESSAGES - 1) % ROWS;
  const shown = () =>
    list.querySelectorAll('li')[lastRow]?.textContent === last &&
    push.lastEventId === `e-${MESSAGES - 1}`;

  const start = performance.now();
  await deliver((i) =>
    handlers!.message({
      type: 'upsert',
      entity: 'Row',
      data: { id: String(i % ROWS), title: `pushed ${i}` },
      id: `e-${i}`,
    }),
  );
  while (!shown()) {
    await list.updateComplete;
    if (!shown()) await nextTask();
  }
  const total = performance.now() - start;
  // Long tasks are reported after they end: give the observer a task to hear of the last one.
  await nextTask();
  await nextTask();
  if (observer) observer.disconnect();
  stopCounting();

  console.log(
    `push burst, ${label}: ${MESSAGES} messages to ${ROWS} rows in ${round(total)} ms; ` +
      `${commits} commits, ${list.renders - rendersBefore} list renders; ` +
      (observer
        ? `long tasks (>= 50 ms): ${longTasks.length}, longest ${round(Math.max(0, ...longTasks))} ms; `
        : 'no longtask entries in this browser; ') +
      `flushes on the manager's timers: ${flushes.length}, longest ${round(Math.max(0, ...flushes))} ms (${flushes.map(round).join(', ')})`,
  );
  const titles = [...list.querySelectorAll('li')].map((item) => item.textContent);
  detach();
  provider.remove();
  controller.dispose();
  return { commits, titles };
}

// Row r gets messages r, r + 1000, ...: it shows the last of them, the largest below MESSAGES.
const expected = Array.from(
  { length: ROWS },
  (_, r) => `pushed ${r + ROWS * Math.floor((MESSAGES - 1 - r) / ROWS)}`,
);

describe('a burst of pushes to a mounted list', () => {
  it(`${MESSAGES} updates in one loop to a ${ROWS}-row list: every one lands, in few commits`, async function () {
    this.timeout(60_000);
    // One task delivers the whole burst, as a replay read in one chunk does.
    const { commits, titles } = await measure('one loop', (message) => {
      for (let i = 0; i < MESSAGES; i++) message(i);
    });
    expect(titles).to.deep.equal(expected, 'every row shows its last update, in order');
    expect(commits).to.be.at.most(MESSAGES / 20, 'at least 20 messages per commit on average');
  });

  it(`${MESSAGES} updates with microtasks between them (as a browser dispatches SSE events)`, async function () {
    this.timeout(60_000);
    // Still one task, but the microtasks run after each message, as they do after each event
    // listener the browser calls: a flush on a microtask would commit every message alone.
    const { commits, titles } = await measure('microtasks between', async (message) => {
      for (let i = 0; i < MESSAGES; i++) {
        message(i);
        await null;
      }
    });
    expect(titles).to.deep.equal(expected, 'every row shows its last update, in order');
    expect(commits).to.be.at.most(MESSAGES / 20, 'at least 20 messages per commit on average');
  });
});
