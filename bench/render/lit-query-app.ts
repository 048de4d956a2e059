/**
 * The same list with @tanstack/lit-query, written as its docs recommend: a list query, and a
 * query per row whose initial data comes from the list's cache (with the list's update time and
 * a staleTime, so mounting a row does not refetch); mutations followed either by invalidating the
 * affected queries (they refetch) or by writing the server's answer with `setQueryData`.
 */
import { LitElement, html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import {
  QueryClient,
  QueryClientProvider,
  createMutationController,
  createQueryController,
} from '@tanstack/lit-query';
import type { BenchApp } from './app.js';
import { rowElementId } from './app.js';
import { ORIGIN, type ItemData } from './fake-server.js';
import { noteListRender, noteRowRender } from './instrument.js';

export type LitQueryMode = 'invalidate' | 'setQueryData';

const listKey = ['items'] as const;
const itemKey = (id: string) => ['item', id] as const;

async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${ORIGIN}${path}`, {
    method,
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
}

let client: QueryClient;
let mode: LitQueryMode;

class TqProvider extends QueryClientProvider {
  constructor() {
    super();
    this.client = client;
  }
}

class TqRow extends LitElement {
  static properties = { itemId: { attribute: false } };
  declare itemId: string;

  readonly #item = createQueryController(this, () => ({
    queryKey: itemKey(this.itemId),
    queryFn: () => send<ItemData>('GET', `/items/${encodeURIComponent(this.itemId)}`),
    initialData: () =>
      client.getQueryData<ItemData[]>(listKey)?.find((item) => item.id === this.itemId),
    initialDataUpdatedAt: () => client.getQueryState(listKey)?.dataUpdatedAt,
  }));

  render() {
    const item = this.#item().data;
    if (!item) return html`<span class="title">…</span>`;
    return html`<span class="title">${item.title}</span>
      <input type="checkbox" .checked=${item.done} />`;
  }

  updated() {
    noteRowRender(this.itemId);
  }
}

class TqList extends LitElement {
  readonly #items = createQueryController(this, {
    queryKey: listKey,
    queryFn: () => send<ItemData[]>('GET', '/items'),
  });

  readonly updateItem = createMutationController(this, {
    mutationFn: ({ id, title }: { id: string; title: string }) =>
      send<ItemData>('PATCH', `/items/${encodeURIComponent(id)}`, { title }),
    onSuccess: (item) => {
      if (mode === 'invalidate') {
        return Promise.all([
          client.invalidateQueries({ queryKey: itemKey(item.id) }),
          client.invalidateQueries({ queryKey: listKey, exact: true }),
        ]);
      }
      client.setQueryData(itemKey(item.id), item);
      client.setQueryData<ItemData[]>(listKey, (list) =>
        list?.map((old) => (old.id === item.id ? item : old)),
      );
      return undefined;
    },
  });

  readonly createItem = createMutationController(this, {
    mutationFn: (title: string) => send<ItemData>('POST', '/items', { title, done: false }),
    onSuccess: (item) => {
      if (mode === 'invalidate')
        return client.invalidateQueries({ queryKey: listKey, exact: true });
      client.setQueryData(itemKey(item.id), item);
      client.setQueryData<ItemData[]>(listKey, (list) => [...(list ?? []), item]);
      return undefined;
    },
  });

  readonly deleteItem = createMutationController(this, {
    mutationFn: (id: string) => send<void>('DELETE', `/items/${encodeURIComponent(id)}`),
    onSuccess: (_nothing, id) => {
      if (mode === 'invalidate')
        return client.invalidateQueries({ queryKey: listKey, exact: true });
      client.setQueryData<ItemData[]>(listKey, (list) => list?.filter((item) => item.id !== id));
      client.removeQueries({ queryKey: itemKey(id), exact: true });
      return undefined;
    },
  });

  render() {
    const query = this.#items();
    if (query.isPending) return html`<p>Loading…</p>`;
    if (query.isError) return html`<p>${String(query.error)}</p>`;
    return html`${repeat(
      query.data,
      (item) => item.id,
      (item) => html`<tq-row id=${rowElementId(item.id)} .itemId=${item.id}></tq-row>`,
    )}`;
  }

  updated() {
    noteListRender();
  }
}

export function litQueryApp(chosen: LitQueryMode): BenchApp {
  mode = chosen;
  if (!customElements.get('tq-row')) {
    customElements.define('tq-provider', TqProvider);
    customElements.define('tq-row', TqRow);
    customElements.define('tq-list', TqList);
  }
  let list: TqList;
  return {
    mount(root) {
      // Both ways share the staleTime: data just fetched is not fetched again on mount.
      client = new QueryClient({
        defaultOptions: {
          queries: { staleTime: 60_000, retry: false, refetchOnWindowFocus: false },
          mutations: { retry: false },
        },
      });
      const provider = document.createElement('tq-provider');
      list = document.createElement('tq-list') as TqList;
      provider.append(list);
      root.append(provider);
      return list;
    },
    update: (id, title) => list.updateItem.mutateAsync({ id, title }),
    create: (title) => list.createItem.mutateAsync(title),
    remove: (id) => list.deleteItem.mutateAsync(id),
  };
}
