// The "Live" card: changes that reached this page's store without a request of its own, pushed
// by the API's event stream (entity writes) or shared by another tab (hydrate). The button edits
// a todo the way another client would, straight through the API, not through the library.
//
// Another tab shares every response it fetches, its clock's too: once a second with the clock
// card on screen. That is a real change (the other tab's newer time), not an echo (TabSyncManager
// sends on nothing it received), so the feed keeps it but folds consecutive ones into one line
// with a count. A share that changes nothing here (the other tab's copy of an event both tabs got
// from the stream, or of data this tab has too) is not a change and is not shown.
import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { ContextConsumer } from '@lit/context';
import { controllerContext } from '../src/index.js';
import type { Controller, ControllerEvent, StoreState } from '../src/index.js';
import { controls } from './styles.js';

interface Change {
  readonly at: string;
  readonly text: string;
  /** For a line of changes from another tab: how many, and the entities they changed. */
  readonly remote?: { readonly count: number; readonly what: readonly string[] };
}

/** Entities named on a line of remote changes; more are counted. */
const NAMED = 3;

const KEEP = 6;

@customElement('demo-live')
export class LiveFeed extends LitElement {
  static override styles = [
    controls,
    css`
      ol {
        list-style: none;
        margin: 0.75rem 0 0;
        padding: 0;
        font-size: 0.9rem;
      }
      li {
        display: flex;
        gap: 0.6rem;
        padding: 0.3rem 0;
        border-top: 1px solid var(--line);
      }
      time {
        color: var(--muted);
        font-family: var(--mono);
        font-variant-numeric: tabular-nums;
      }
      .quiet {
        color: var(--muted);
        margin: 0.75rem 0 0;
      }
      .what {
        color: var(--muted);
      }
    `,
  ];

  @state() changes: readonly Change[] = [];
  #stop: (() => void) | undefined;
  /**
   * The entities as the last action left them, by type then pk: what a share from another tab is
   * compared with. Shallow copies, since the store may write a table it owns in place.
   */
  #before = new Map<string, Readonly<Record<string, unknown>>>();
  /** Whether this page has stored an answer of its own yet, and shown the restore. */
  #fetched = false;
  #restored = false;

  readonly #consumer = new ContextConsumer(this, {
    context: controllerContext,
    subscribe: true,
    callback: (controller) => this.#follow(controller as Controller),
  });

  #follow(controller: Controller): void {
    this.#stop?.();
    const state = controller.getState();
    this.#before = tablesOf(state);
    // Only a provider that persists has a copy to restore.
    this.#fetched = !persists(this) || Object.keys(state.meta).length > 0;
    this.#restored = false;
    this.#stop = controller.events?.subscribe((event: ControllerEvent) => {
      if (event.type !== 'action') return;
      const { action } = event;
      if (action.type === 'response/set') this.#fetched = true;
      else if (action.type === 'entities/set') {
        // The same edit may have come from another tab first: shown once.
        const { key } = action.schema as { key?: string };
        const pk = pkOf(action.value);
        if (key === undefined || this.#differs(key, pk, event.state)) {
          this.#add(describeWrite(action.value));
        }
      } else if (action.type === 'hydrate') {
        const changed = this.#changedBy(action.state, event.state);
        // The persisted copy comes back before this page's first fetch: PersistManager holds
        // its requests until it has. Anything shared after that is another tab's.
        if (changed.length > 0 && !this.#fetched && !this.#restored) {
          this.#restored = true;
          this.#add('Restored from IndexedDB');
        } else if (changed.length > 0) this.#addRemote(changed);
      }
      this.#before = tablesOf(event.state);
    });
  }

  /** Whether the action that led to `after` changed entity `type` `pk`. */
  #differs(type: string, pk: string, after: StoreState): boolean {
    const before = this.#before.get(type)?.[pk];
    return JSON.stringify(after.entities[type]?.[pk]) !== JSON.stringify(before);
  }

  /** The entities of `received` whose value in the store differs from before: "Todo 1", … */
  #changedBy(received: StoreState, after: StoreState): string[] {
    const changed: string[] = [];
    for (const type of Object.keys(received.entities ?? {})) {
      const now = after.entities[type] ?? {};
      const before = this.#before.get(type) ?? {};
      for (const pk of Object.keys(received.entities[type]!)) {
        if (JSON.stringify(now[pk]) === JSON.stringify(before[pk])) continue;
        // A collection ("[Todo]:{…}") is named by the entities it holds.
        changed.push(type.startsWith('[') ? '' : `${type} ${pk}`);
      }
    }
    return changed;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const controller = this.#consumer.value as Controller | undefined;
    if (controller && !this.#stop) this.#follow(controller);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stop?.();
    this.#stop = undefined;
  }

  #add(text: string): void {
    const at = new Date().toLocaleTimeString([], { hour12: false });
    this.changes = [{ at, text }, ...this.changes].slice(0, KEEP);
  }

  /** A change from another tab: one more on the newest line if that one is remote too. */
  #addRemote(changed: readonly string[]): void {
    const at = new Date().toLocaleTimeString([], { hour12: false });
    const [newest, ...older] = this.changes;
    const count = (newest?.remote?.count ?? 0) + 1;
    const what = [...new Set([...(newest?.remote?.what ?? []), ...changed])].filter(Boolean);
    const text = `${count} ${count === 1 ? 'change' : 'changes'} from another tab`;
    const line: Change = { at, text, remote: { count, what } };
    this.changes = newest?.remote ? [line, ...older] : [line, ...this.changes].slice(0, KEEP);
  }

  async #editElsewhere(): Promise<void> {
    const title = `Renamed elsewhere at ${new Date().toLocaleTimeString([], { hour12: false })}`;
    await fetch('/api/todos/1', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title }),
    });
  }

  override render() {
    return html`
      <button @click=${() => this.#editElsewhere()}>Rename todo 1 from outside</button>
      ${
        this.changes.length === 0
          ? html`<p class="quiet">
              Nothing yet. Edit a todo here in another window, or press the button.
            </p>`
          : html`<ol>
              ${this.changes.map(
                (change) =>
                  html`<li class=${change.remote ? 'remote' : ''}>
                    <time>${change.at}</time>
                    <span>${change.text}${change.remote ? whatOf(change.remote.what) : ''}</span>
                  </li>`,
              )}
            </ol>`
      }
    `;
  }
}

/** Whether the `<resource-provider>` above `element` (across shadow roots) has `persist`. */
function persists(element: Element): boolean {
  for (let node: Node | undefined = element; node;) {
    if (node instanceof Element && node.localName === 'resource-provider') {
      return node.hasAttribute('persist');
    }
    node = node.parentNode ?? (node as ShadowRoot).host;
  }
  return false;
}

/** The pk of an entity write: the entity's id, or the pk itself for a deletion. */
function pkOf(value: unknown): string {
  return value !== null && typeof value === 'object'
    ? String((value as { id?: unknown }).id)
    : String(value);
}

/** Shallow copies of the store's entity tables. */
function tablesOf(state: StoreState): Map<string, Readonly<Record<string, unknown>>> {
  const tables = new Map<string, Readonly<Record<string, unknown>>>();
  for (const type of Object.keys(state.entities)) tables.set(type, { ...state.entities[type] });
  return tables;
}

/** " (Todo 1, ClockTick clock)": what a line of remote changes changed, the first few. */
function whatOf(what: readonly string[]) {
  const more = what.length - NAMED;
  const named = what.slice(0, NAMED).join(', ') + (more > 0 ? ` and ${more} more` : '');
  return html` <span class="what">(${named})</span>`;
}

/** "Todo 1: “Buy milk”" for an upsert, "Todo 1 deleted" for an INVALID write (its pk). */
function describeWrite(value: unknown): string {
  if (value === null || typeof value !== 'object') return `Todo ${String(value)} deleted`;
  const { id, title } = value as { id?: unknown; title?: unknown };
  return typeof title === 'string'
    ? `Todo ${String(id)}: “${title}”`
    : `Todo ${String(id)} changed`;
}

declare global {
  interface HTMLElementTagNameMap {
    'demo-live': LiveFeed;
  }
}
