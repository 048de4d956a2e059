// What every browser reliability case checks: no unhandled rejection (window 'unhandledrejection'
// fails the test it happened in), and the store's data as it was.
import { expect, fixture, html } from '@open-wc/testing';
import type { Controller } from '../../src/core/controller/controller.js';
import type { ResourceProvider } from '../../src/lit/resource-provider.js';
import '../../src/lit/define-provider.js';

/** Fails the test during which a promise rejection went unhandled. */
export function failOnUnhandledRejection(): void {
  let seen: unknown[] = [];
  const listener = (event: PromiseRejectionEvent) => void seen.push(event.reason);
  before(() => window.addEventListener('unhandledrejection', listener));
  afterEach(async () => {
    // The event fires after the microtask queue drains: give it a task or two.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const found = seen;
    seen = [];
    expect(found.map(String), 'no promise rejection went unhandled').to.deep.equal([]);
  });
  after(() => window.removeEventListener('unhandledrejection', listener));
}

/** What a failure must leave exactly as it was: entities, stored results and their meta. */
export function storedData(controller: Controller): string {
  const { entities, entitiesMeta, endpoints, meta } = controller.getState();
  return JSON.stringify({ entities, entitiesMeta, endpoints, meta });
}

/** Mounts `<resource-provider>` with `controller` around `children`. */
export async function mount(
  controller: Controller,
  ...children: Element[]
): Promise<ResourceProvider> {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  provider.append(...children);
  await fixture(html`<div>${provider}</div>`);
  return provider;
}

/** Resolves after `ms` ms. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
