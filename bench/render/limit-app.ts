/**
 * The limit: the same list written by hand with Lit and no data library. It fetches the list from
 * the same fake server, and after a mutation applies the server's answer itself, touching only
 * what changed: an update hands the answered item to its one row (the list does not render), a
 * create appends the answer, a delete drops the row. Nothing is normalized, cached or refetched,
 * so no data layer can do less work for the same screen.
 */
import { LitElement, html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { BenchApp } from './app.js';
import { rowElementId } from './app.js';
import { ORIGIN, type ItemData } from './fake-server.js';
import { noteListRender, noteRowRender } from './instrument.js';

async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${ORIGIN}${path}`, {
    method,
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
}

class LimitRow extends LitElement {
  static properties = { item: { attribute: false } };
  declare item: ItemData | undefined;

  render() {
    const item = this.item!;
    return html`<span class="title">${item.title}</span>
      <input type="checkbox" .checked=${item.done} />`;
  }

  updated() {
    noteRowRender(this.item!.id);
  }
}

class LimitList extends LitElement {
  static properties = { items: { state: true }, error: { state: true } };
  declare items: ItemData[] | undefined;
  declare error: unknown;

  connectedCallback() {
    super.connectedCallback();
    send<ItemData[]>('GET', '/items').then(
      (items) => (this.items = items),
      (error: unknown) => (this.error = error),
    );
  }

  async updateItem(id: string, title: string): Promise<ItemData> {
    const item = await send<ItemData>('PATCH', `/items/${encodeURIComponent(id)}`, { title });
    // The list keeps its array (and does not render); the one row gets the answer.
    const index = this.items!.findIndex((old) => old.id === id);
    if (index >= 0) this.items![index] = item;
    const row = this.shadowRoot!.getElementById(rowElementId(id)) as LimitRow | null;
    if (row) row.item = item;
    return item;
  }

  async createItem(title: string): Promise<ItemData> {
    const item = await send<ItemData>('POST', '/items', { title, done: false });
    this.items = [...this.items!, item];
    return item;
  }

  async deleteItem(id: string): Promise<void> {
    await send<void>('DELETE', `/items/${encodeURIComponent(id)}`);
    this.items = this.items!.filter((item) => item.id !== id);
  }

  render() {
    if (this.error !== undefined) return html`<p>${String(this.error)}</p>`;
    if (!this.items) return html`<p>Loading…</p>`;
    return html`${repeat(
      this.items,
      (item) => item.id,
      (item) => html`<limit-row id=${rowElementId(item.id)} .item=${item}></limit-row>`,
    )}`;
  }

  updated() {
    noteListRender();
  }
}

export function limitApp(): BenchApp {
  if (!customElements.get('limit-row')) {
    customElements.define('limit-row', LimitRow);
    customElements.define('limit-list', LimitList);
  }
  let list: LimitList;
  return {
    mount(root) {
      list = document.createElement('limit-list') as LimitList;
      root.append(list);
      return list;
    },
    update: (id, title) => list.updateItem(id, title),
    create: (title) => list.createItem(title),
    remove: (id) => list.deleteItem(id),
  };
}
