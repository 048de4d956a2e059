// Helpers for the end-to-end tests: render the demo app (the same modules `npm start` serves)
// into the test page, reach into its shadow roots, and talk to the real API the test runner
// serves under /api (server/middleware.mjs).
import { fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import '../../demo/app.js';
import type { DemoApp } from '../../demo/app.js';
import { session } from '../../demo/resources.js';
import { until as waitUntil } from '../../src/lit/test-utils/reader.js';

export { eventually } from '../../src/lit/test-utils/reader.js';

/** Renders `<resource-provider><demo-app>` as index.html does; a new store for every test. */
export async function openDemo(): Promise<DemoApp> {
  session.token = '';
  const provider = await fixture(
    html`<resource-provider><demo-app></demo-app></resource-provider>`,
  );
  return provider.querySelector('demo-app')!;
}

function scope(node: Element): ParentNode {
  return node.shadowRoot ?? node;
}

/** Follows `selectors` from `from`, each one inside the shadow root of the element before it. */
export function query<T extends Element = HTMLElement>(from: Element, ...selectors: string[]): T {
  let node = from;
  for (const selector of selectors) {
    const next = scope(node).querySelector(selector);
    if (!next) throw new Error(`nothing matches ${selectors.join(' » ')} (at "${selector}")`);
    node = next;
  }
  return node as T;
}

/** Like `query`, the last selector matching every element it can. */
export function queryAll<T extends Element = HTMLElement>(
  from: Element,
  ...selectors: string[]
): T[] {
  const last = selectors[selectors.length - 1]!;
  const parent = selectors.length > 1 ? query(from, ...selectors.slice(0, -1)) : from;
  return [...scope(parent).querySelectorAll<T>(last)];
}

/** Whether `query` would find something. */
export function exists(from: Element, ...selectors: string[]): boolean {
  try {
    query(from, ...selectors);
    return true;
  } catch {
    return false;
  }
}

/** The text of an element's shadow root (or its own), whitespace collapsed. */
export function textOf(element: Element): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
    const root = (node as Element).shadowRoot;
    if (root) root.childNodes.forEach(walk);
    node.childNodes.forEach(walk);
  };
  walk(element);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** Types into a text field as a person would, then leaves the rest to the page. */
export function type(input: HTMLInputElement, text: string): void {
  input.focus();
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

/** Waits until `check` passes, or throws its last failure after `timeout` ms (3 s: the demo's API). */
export function until(check: () => void, timeout = 3000): Promise<void> {
  return waitUntil(check, timeout);
}

/** What the page asked the API for since the log had `since` entries: `METHOD /path?query` each. */
export async function requestsSince(since: number): Promise<string[]> {
  const { body } = await api<{ method: string; path: string }[]>('GET', '/__requests');
  return body.slice(since).map((entry) => `${entry.method} ${entry.path}`);
}

/** How many requests the API has logged (to count what follows, with `requestsSince`). */
export async function requestCount(): Promise<number> {
  return (await api<unknown[]>('GET', '/__requests')).body.length;
}

/** Calls the demo's API directly (not through the library) and returns status and JSON body. */
export async function api<T = any>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(`/api${path}`, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Back to the seeded data and no latency. */
export async function resetApi(): Promise<void> {
  const { status } = await api('POST', '/__reset');
  if (status !== 204) throw new Error(`POST /api/__reset answered ${status}`);
}

/** Makes the API wait `ms` before each answer (until the next reset). */
export async function slowApi(ms: number): Promise<void> {
  await api('POST', '/__latency', { ms });
}

/** A record of the managers' IndexedDB storage (PersistManager's store, the offline queue). */
export function storedRecord<T = any>(name: string): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('resource-elements', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('stores');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const request = db.transaction('stores', 'readonly').objectStore('stores').get(name);
      request.onsuccess = () => {
        db.close();
        resolve(request.result);
      };
      request.onerror = () => reject(request.error);
    };
  });
}

/** A todo as the demo's API sends it (GET /api/todos). */
export interface TodoRow {
  id: string;
  userId: number;
  title: string;
  completed: boolean;
}
