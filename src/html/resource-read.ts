import { ReadStatus } from '../core/index.js';
import type { EndpointLike } from '../core/index.js';
import { bindRead } from '../elements/bind.js';
import type { BoundReadState, ReadBinding } from '../elements/bind.js';
import { PendingTasks } from '../lit/pending-task.js';
import { onRegister, registeredNames, registeredRead } from './reads.js';
import { fill, stampTemplate } from './stamp.js';
import type { Stamp } from './stamp.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** The params attributes' prefix: `param-user-id="1"` is `{ userId: '1' }`. */
const PARAM = 'param-';

const PENDING: BoundReadState<unknown> = {
  status: ReadStatus.Pending,
  value: undefined,
  error: undefined,
  previous: false,
};

/** The params the element's attributes give, or undefined when it has none. */
function paramsOf(element: Element): Record<string, string> | undefined {
  let params: Record<string, string> | undefined;
  for (const { name, value } of element.attributes) {
    if (!name.startsWith(PARAM)) continue;
    const key = name.slice(PARAM.length).replace(/-(.)/g, (_, next: string) => next.toUpperCase());
    (params ??= {})[key] = value;
  }
  return params;
}

function sameParams(a: Record<string, string> | undefined, b: Record<string, string> | undefined) {
  if (!a || !b) return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * What keeps an item's nodes from one render to the next: an entity's class and pk (an edited
 * entity is a new object, and its nodes must stay, with their focus), else the item itself.
 */
function keyOf(item: unknown): unknown {
  const entity = item as { pk?: () => unknown; constructor?: { key?: unknown } } | null;
  return typeof entity?.pk === 'function'
    ? `${String(entity.constructor?.key)} ${String(entity.pk())}`
    : item;
}

/** An item of the list shown, and its clone of the item template. */
interface Row {
  readonly key: unknown;
  item: unknown;
  readonly stamp: Stamp;
}

const remove = (nodes: readonly ChildNode[] | undefined) => nodes?.forEach((node) => node.remove());

/** The error of an element whose `endpoint` names no registered read. */
const unknownRead = (element: Element, name: string): Error =>
  new Error(
    `<${element.localName}> found no read registered as "${name}"${
      DEV()
        ? `: register its endpoint with registerReads({ ${JSON.stringify(name)}: endpoint }) (registered: ${registeredNames().join(', ') || 'none'})`
        : ''
    }.`,
  );

/**
 * Reads a registered endpoint through the nearest `<resource-provider>` and shows it with the
 * `<template>`s it holds, in plain HTML: no script for the element, no expression language. Its
 * `endpoint` attribute names a read given to `registerReads`; each `param-*` attribute is one
 * param, by its name in camelCase (`param-user-id="1"` is `{ userId: '1' }`; values are strings,
 * which a URL sends as the same text and a list's filters match as equal). When these attributes
 * change, it reads again.
 *
 * Each state shows a clone of the child `<template data-for="…">` of that name: `pending`,
 * `error` (filled from the error: `data-field="message"`), `complete` (filled from the value). For
 * a list, each item is a clone of `<template data-for="item">`, put in the complete clone's
 * element marked `data-items` (or in this element), and `<template data-for="empty">` is shown
 * there when the list is empty. Clones are filled by field path: `data-field="user.name"` sets
 * an element's text, `data-field-href="url"` an attribute (a boolean field, or any field for an
 * attribute the element has as a boolean property, sets or removes it). Values go in as text,
 * never as markup; a `<script>`, event handler attributes and `javascript:` URLs are never
 * written.
 *
 * It renders only when what it shows changed, and an item keeps its nodes while it stays in the
 * list (an entity by its pk, so an edited todo is filled in place and keeps its focus). Without
 * an error template, an error shows as its message.
 *
 * @attr endpoint - The name of the read, as given to `registerReads`.
 * @attr param-* - One param each: `param-user-id="1"` reads `{ userId: '1' }`.
 * @fires resource-render - After each render; `detail` is the state shown (`status`, `value`, `error`).
 *
 * @example
 * ```html
 * <resource-read endpoint="todos" param-user-id="1">
 *   <template data-for="pending"><p>Loading…</p></template>
 *   <template data-for="error"><p role="alert" data-field="message"></p></template>
 *   <template data-for="complete"><ul data-items></ul></template>
 *   <template data-for="item"><li data-field="title"></li></template>
 *   <template data-for="empty"><li>Nothing to do.</li></template>
 * </resource-read>
 * ```
 */
export class ResourceReadElement extends HTMLElement {
  #binding: ReadBinding<EndpointLike, unknown> | undefined;
  /** The endpoint name read (or waited for), and the params given to the binding. */
  #name: string | undefined;
  #params: Record<string, string> | undefined;
  /** Stops waiting for `#name` to be registered. */
  #stopWaiting: (() => void) | undefined;
  #check: ReturnType<typeof setTimeout> | undefined;
  /** The binding's latest state, and what is on the page. */
  #state: BoundReadState<unknown> = PENDING;
  #shown: BoundReadState<unknown> | undefined;
  #scheduled = false;
  /** The shown state's clone; the error's text when there is no error template. */
  #main: Stamp | undefined;
  #message: Text | undefined;
  /** Where items go, the items' clones in order, and the empty list's clone. */
  #container: ParentNode = this;
  #rows: Row[] = [];
  #empty: Stamp | undefined;
  readonly #observer = new MutationObserver(() => this.#read());
  /**
   * Its waits and failures, told to a `<resource-boundary>` above (the pending-task protocol), as
   * a `ResourceController`'s are; a boundary's Retry refetches it.
   */
  readonly #tasks = new PendingTasks(this, async () => {
    await this.refetch();
    if (this.#state.status === ReadStatus.Error) throw this.#state.error;
  });

  /** The state shown: `pending`, `error` or `complete`. */
  get status(): BoundReadState<unknown>['status'] {
    return (this.#shown ?? PENDING).status;
  }

  /** The data shown, while `status` is `complete`. */
  get value(): unknown {
    return (this.#shown ?? PENDING).value;
  }

  /** Why the read failed (also set while stale data is shown and refreshing it failed). */
  get error(): unknown {
    return (this.#shown ?? PENDING).error;
  }

  /**
   * Fetches the read again, even when it is fresh; never rejects (a failure shows as `error`).
   * @example document.querySelector('resource-read')!.refetch();
   */
  refetch(): Promise<void> {
    return this.#binding?.refetch() ?? Promise.resolve();
  }

  /** Starts reading, and watching its attributes. */
  connectedCallback(): void {
    this.#observer.observe(this, { attributes: true });
    this.#read();
  }

  /** Lets go of the read and the provider; what it shows stays until it connects again. */
  disconnectedCallback(): void {
    this.#observer.disconnect();
    this.#release();
    this.#tasks.leave();
  }

  #release(): void {
    this.#binding?.unbind();
    this.#stopWaiting?.();
    clearTimeout(this.#check);
    this.#binding = this.#stopWaiting = this.#name = undefined;
  }

  /** Binds the read its attributes name, or gives the binding new params. */
  #read(): void {
    const name = this.getAttribute('endpoint') ?? '';
    const params = paramsOf(this);
    if (name !== this.#name) this.#release();
    this.#name = name;
    if (this.#binding) {
      if (!sameParams(params, this.#params)) this.#binding.setArgs((this.#params = params));
      return;
    }
    const endpoint = registeredRead(name);
    if (endpoint) {
      this.#stopWaiting?.();
      clearTimeout(this.#check);
      this.#stopWaiting = undefined;
      this.#params = params;
      this.#binding = bindRead(this, endpoint, params, (state) => this.#show(state));
      return;
    }
    if (this.#stopWaiting) return;
    // A script may register the name later in this task, or any time after: it reads then.
    this.#show(PENDING);
    this.#stopWaiting = onRegister(() => {
      if (registeredRead(name)) this.#read();
    });
    this.#check = setTimeout(() =>
      this.#show({ ...PENDING, status: ReadStatus.Error, error: unknownRead(this, name) }),
    );
  }

  /** Renders `state` in a microtask: the states a task goes through are one render. */
  #show(state: BoundReadState<unknown>): void {
    this.#state = state;
    // A boundary above waits while there is nothing to show. A failure is the boundary's to show
    // unless an error template shows it here.
    if (state.status === ReadStatus.Pending) this.#tasks.wait();
    else {
      this.#tasks.end(state.status === ReadStatus.Error && !this.#template('error'), state.error);
    }
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#render();
    });
  }

  #template(name: string): HTMLTemplateElement | null {
    return this.querySelector(`:scope > template[data-for="${name}"]`);
  }

  #stamp(template: HTMLTemplateElement, source: unknown, parent: ParentNode): Stamp {
    const stamp = stampTemplate(this.ownerDocument, template, source);
    parent.append(...stamp.nodes);
    return stamp;
  }

  #render(): void {
    const state = this.#state;
    const shown = this.#shown;
    if (!this.isConnected) return;
    if (
      shown?.status === state.status &&
      shown.value === state.value &&
      shown.error === state.error
    ) {
      return;
    }
    this.#shown = state;
    if (state.status !== shown?.status) this.#clear();
    const source = state.status === ReadStatus.Error ? state.error : state.value;
    const template = this.#template(state.status);
    if (this.#main) fill(this.#main, source);
    else if (template) {
      this.#main = this.#stamp(template, source, this);
      for (const node of this.#main.nodes) {
        // By nodeType, not instanceof: the page may be another window's document.
        const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : undefined;
        const items = element?.matches('[data-items]')
          ? element
          : element?.querySelector('[data-items]');
        if (items) {
          this.#container = items;
          break;
        }
      }
    } else if (state.status === ReadStatus.Error) {
      this.#message ??= this.appendChild(this.ownerDocument.createTextNode(''));
      this.#message.data = state.error instanceof Error ? state.error.message : String(state.error);
    }
    if (state.status === ReadStatus.Complete) {
      this.#list(Array.isArray(state.value) ? state.value : undefined);
    }
    this.dispatchEvent(new CustomEvent('resource-render', { detail: state, bubbles: true }));
  }

  /**
   * Shows `items`: each item's clone kept, filled again or made; the empty list's clone. No list
   * (another read's value, shown with no pending state between) shows no rows.
   */
  #list(items: readonly unknown[] | undefined): void {
    const emptyTemplate = this.#template('empty');
    if (items?.length === 0 && emptyTemplate) {
      this.#empty ??= this.#stamp(emptyTemplate, items, this.#container);
    } else {
      remove(this.#empty?.nodes);
      this.#empty = undefined;
    }
    const template = this.#template('item');
    const kept = new Map<unknown, Row>();
    for (const row of this.#rows) if (!kept.has(row.key)) kept.set(row.key, row);
    const rows: Row[] = [];
    for (const item of items ?? []) {
      const key = keyOf(item);
      let row = kept.get(key);
      if (row) {
        kept.delete(key);
        if (row.item !== item) fill(row.stamp, (row.item = item));
      } else if (template) {
        row = { key, item, stamp: stampTemplate(this.ownerDocument, template, item) };
      } else continue;
      rows.push(row);
    }
    const staying = new Set(rows);
    for (const row of this.#rows) if (!staying.has(row)) remove(row.stamp.nodes);
    // From the last row up, each row goes right before the one after it: rows already in place
    // are not moved. A row that moves keeps its focus where the browser can move a node without
    // taking it out (`moveBefore`); elsewhere, an element taken out loses its focus.
    const container = this.#container as ParentNode & {
      moveBefore?(node: Node, child: Node | null): void;
    };
    let next: ChildNode | null = null;
    for (let i = rows.length - 1; i >= 0; i--) {
      const nodes = rows[i]!.stamp.nodes;
      const last = nodes[nodes.length - 1];
      if (!last) continue;
      if (last.parentNode !== container || last.nextSibling !== next) {
        for (const node of nodes) {
          if (node.parentNode === container && container.moveBefore) {
            container.moveBefore(node, next);
          } else container.insertBefore(node, next);
        }
      }
      next = nodes[0]!;
    }
    this.#rows = rows;
  }

  /** Takes out what the previous state showed. */
  #clear(): void {
    remove(this.#main?.nodes);
    remove(this.#empty?.nodes);
    for (const row of this.#rows) remove(row.stamp.nodes);
    this.#message?.remove();
    this.#main = this.#empty = this.#message = undefined;
    this.#rows = [];
    this.#container = this;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'resource-read': ResourceReadElement;
  }
  interface HTMLElementEventMap {
    'resource-render': CustomEvent<BoundReadState<unknown>>;
  }
}
