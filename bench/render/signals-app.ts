/**
 * The list of rows with resource-elements/signals, written as its guide shows: one `readSignal`
 * on the list's `getList`, the rows rendered through `watch()` from the list's ids (the same
 * array while the ids are the same), each row an element whose title and checkbox are bound with
 * `watch()` to its `entitySignal`. An update changes the bindings of one row and renders no host.
 */
import { LitElement, html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { SignalWatcher, watch } from '@lit-labs/signals';
import { Signal } from 'signal-polyfill';
import { Controller, Entity, createResource } from 'resource-elements';
import { entitySignal, readSignal } from 'resource-elements/signals';
import type { BenchApp } from './app.js';
import { rowElementId } from './app.js';
import { ORIGIN } from './fake-server.js';
import { noteListRender, noteRowRender } from './instrument.js';

class Item extends Entity {
  id = '';
  title = '';
  done = false;
  pk() {
    return this.id;
  }
  static key = 'BenchSignalItem';
}

const ItemResource = createResource({ urlPrefix: ORIGIN, path: '/items/:id', schema: Item });

class SigRow extends SignalWatcher(LitElement) {
  readonly #id = new Signal.State('');
  set itemId(id: string) {
    this.#id.set(id);
  }
  readonly item = entitySignal(this, Item, () => ({ id: this.#id.get() }));
  readonly label = new Signal.Computed(() => this.item.get()?.title ?? '');
  readonly done = new Signal.Computed(() => this.item.get()?.done ?? false);

  render() {
    return html`<span class="title">${watch(this.label)}</span>
      <input type="checkbox" .checked=${watch(this.done)} />`;
  }

  updated() {
    noteRowRender(this.id.slice('row-'.length));
  }
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

class SigList extends SignalWatcher(LitElement) {
  readonly items = readSignal(this, ItemResource.getList);
  readonly ids = new Signal.Computed(() => (this.items.get().value ?? []).map((item) => item.id), {
    equals: sameIds,
  });
  // The status alone: a renamed item changes the read's value, not its status.
  readonly status = new Signal.Computed(() => this.items.get().status);
  readonly rows = new Signal.Computed(() => {
    const status = this.status.get();
    const error = status === 'error' ? this.items.get().error : undefined;
    if (status === 'pending') return html`<p>Loading…</p>`;
    if (status === 'error') return html`<p>${String(error)}</p>`;
    return repeat(
      this.ids.get(),
      (id) => id,
      (id) => html`<sig-row id=${rowElementId(id)} .itemId=${id}></sig-row>`,
    );
  });
  controller!: Controller;

  render() {
    return html`${watch(this.rows)}`;
  }

  updated() {
    noteListRender();
  }
}

export function signalsApp(): BenchApp {
  if (!customElements.get('sig-row')) {
    customElements.define('sig-row', SigRow);
    customElements.define('sig-list', SigList);
  }
  let list: SigList;
  return {
    mount(root) {
      const provider = document.createElement('resource-provider');
      const controller = new Controller();
      provider.controller = controller;
      list = document.createElement('sig-list') as SigList;
      list.controller = controller;
      provider.append(list);
      root.append(provider);
      return list;
    },
    update: (id, title) => list.controller.fetch(ItemResource.partialUpdate, { id }, { title }),
    create: (title) => list.controller.fetch(ItemResource.getList.push, {}, { title, done: false }),
    remove: (id) => list.controller.fetch(ItemResource.delete, { id }),
  };
}
