import { ContextProvider } from '@lit/context';
import { controllerContext } from './controller-context.js';
import { Controller } from '../core/index.js';
import { providerHooks, unreadState } from '../provider/provider-hooks.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** What `<resource-provider>` tells of its Controller's activity (`resource-activity` event). */
export interface ResourceActivity {
  /** Reads in flight (a retried read counts once, waits between attempts included). */
  readonly fetching: number;
  /** Mutations (POST, PUT, PATCH, DELETE and other side effects) in flight. */
  readonly mutating: number;
  /** True after the window (or `controller.offline()`) said the network is gone. */
  readonly offline: boolean;
}

/** The custom states a provider sets, e.g. `resource-provider:state(fetching)`. */
const STATES = ['fetching', 'mutating', 'offline'] as const;

/**
 * Owns one Controller and provides it, through `controllerContext`, to every element below it.
 * The Controller is made on first use, unless one was assigned to `controller` before. The
 * element has no layout box of its own: its children render as if it were not there. It imports
 * no Lit: it answers the context protocol's requests (`@lit/context` consumers, `bindRead`, and
 * FAST's requests, which say `multiple` where the protocol says `subscribe`). While it is
 * connected, the window's `online`, `offline` and `visibilitychange` events reach the Controller,
 * which revalidates what is shown.
 *
 * It also shows what its Controller is doing: `fetching` and `mutating` count the reads and
 * mutations in flight and `offline` is the network's state; each change fires a
 * `resource-activity` event and sets the CSS custom states `:state(fetching)`, `:state(mutating)`
 * and `:state(offline)` (where the browser has `CustomStateSet`; elsewhere only the properties
 * and the event), so a page can show a progress bar with CSS alone.
 *
 * @example
 * ```css
 * resource-provider:state(fetching) .progress { visibility: visible; }
 * ```
 *
 * @slot - The elements that read through the provided Controller.
 * @fires resource-activity - When `fetching`, `mutating` or `offline` changed; `detail` holds all three.
 * @cssstate fetching - Reads are in flight.
 * @cssstate mutating - Mutations are in flight.
 * @cssstate offline - The network is gone.
 *
 * @example
 * ```html
 * <resource-provider>
 *   <todo-list></todo-list>
 * </resource-provider>
 * ```
 * @example
 * ```ts
 * const provider = document.createElement('resource-provider');
 * provider.controller = new Controller({ gcTime: 60_000 });
 * ```
 */
// No HTMLElement on a server without a global DOM shim: resource-elements/ssr gives the class the
// shim's when it renders the provider.
export class ResourceProvider extends ((globalThis.HTMLElement ?? Object) as typeof HTMLElement) {
  #controller: Controller | undefined;
  readonly #provider: ContextProvider<typeof controllerContext>;
  /** The element's custom states; undefined where the browser has none. */
  readonly #states = this.attachInternals?.().states as Set<string> | undefined;
  /** Ends what `#bind` started: when the element leaves or its Controller is replaced. */
  #unbind: (() => void) | undefined;

  constructor() {
    super();
    // FAST's requests say `multiple` where the protocol says `subscribe`: both subscribe, so a
    // replaced Controller reaches them too. Added first, so it runs before the provider answers.
    this.addEventListener('context-request', (event) => {
      (event as { subscribe?: boolean }).subscribe ||= (event as { multiple?: boolean }).multiple;
    });
    this.#provider = new ContextProvider(this, { context: controllerContext });
    // A Controller assigned before the element upgraded sits in an own property that would hide
    // the accessor: move it behind the accessor.
    if (Object.hasOwn(this, 'controller')) {
      const assigned = (this as { controller?: Controller }).controller;
      delete (this as { controller?: Controller }).controller;
      if (assigned) this.controller = assigned;
    }
  }

  /** The Controller provided to descendants; made on first read unless one was assigned. */
  get controller(): Controller {
    return (this.#controller ??= providerHooks.managers?.create(this) ?? new Controller());
  }

  /** Replaces the Controller: connected consumers rebind to it, and the attributes' managers move. */
  set controller(controller: Controller) {
    this.#controller = controller;
    // Consumers subscribe, so replacing a connected provider's Controller rebinds them. A server
    // render never connects the provider: the Controller bound to it answers the reads at once.
    this.#provider.setValue(controller);
    // The attributes' managers move too: what they bring must land in the store read now.
    if (this.isConnected) this.#bind();
  }

  /** Reads in flight in the Controller (read-only). */
  readonly fetching: number = 0;
  /** Mutations in flight in the Controller (read-only). */
  readonly mutating: number = 0;
  /** Whether the network is gone: the window's `offline` event, or `controller.offline()` (read-only). */
  readonly offline: boolean = false;

  /**
   * Provides its Controller to the requests below (and to those sent before it was there), takes
   * a server-rendered store from its state script, and binds the window's network and visibility
   * events to its Controller. A subclass that overrides it calls `super.connectedCallback()`.
   */
  connectedCallback(): void {
    // No layout box: the children render as if the element were not there. A display of the
    // page's own in the style attribute is kept. (A server render gives it a shadow root whose
    // style says the same, for the time before the browser defines it.)
    this.style.display ||= 'contents';
    // The store a server rendered into it: resource-elements/hydration reads it (provider-hooks.ts).
    const script = this.querySelector(':scope>script[data-resource-state]');
    if (script) {
      script.remove();
      (providerHooks.state ?? unreadState)(this, this.controller, script.textContent!);
    }
    // The value must be in place before the provider announces itself, so late consumers that
    // ask again receive a Controller, not undefined.
    this.#provider.setValue(this.controller);
    // Requests that reached the document before a provider was there are sent again.
    this.#provider.hostConnected();
    this.#bind();
  }

  /** Lets go of the window's events and of the managers its attributes attached. */
  disconnectedCallback(): void {
    this.#unbind?.();
    this.#unbind = undefined;
  }

  /**
   * While connected, for its Controller (a new one starts over): the window's `online`, `offline`
   * and `visibilitychange` reach it, its requests and network events are counted, and the
   * managers the attributes name are attached.
   */
  #bind(): void {
    this.#unbind?.();
    const controller = this.controller;
    const document = this.ownerDocument;
    const onWindow = ({ type }: Event) => {
      if (type !== 'visibilitychange') controller[type as 'online' | 'offline']();
      else if (document.visibilityState === 'visible') controller.focus();
    };
    const listen = (method: 'addEventListener' | 'removeEventListener') => {
      for (const type of ['online', 'offline', 'visibilitychange']) {
        (type[0] === 'v' ? document : document.defaultView)?.[method](type, onWindow);
      }
    };
    listen('addEventListener');
    // The network's state is the Controller's (`isOnline`): online until the window says
    // otherwise, since navigator.onLine at start is not to be trusted (it is false in some
    // headless and sandboxed browsers that do reach the server), and a wrong "offline" would hold
    // every retry back.
    const count = (type = 'request'): void => {
      if (!['request', 'online', 'offline'].includes(type)) return;
      const next = { fetching: 0, mutating: 0, offline: !controller.isOnline };
      for (const { endpoint } of controller.inFlight?.() ?? []) {
        next[endpoint.sideEffect ? 'mutating' : 'fetching']++;
      }
      if (STATES.every((name) => next[name] === this[name])) return;
      for (const name of STATES) {
        // Only a state that turns on or off is touched: setting one costs a style invalidation
        // of the page below, and a request that starts while another runs changes none.
        if (!next[name] === !this[name]) continue;
        const state = (state: string) => this.#states?.[next[name] ? 'add' : 'delete'](state);
        try {
          state(name);
        } catch {
          // Chromium before 125 knows only dashed states (`:--fetching`).
          state('--' + name);
        }
      }
      Object.assign(this, next);
      this.dispatchEvent(new CustomEvent<ResourceActivity>('resource-activity', { detail: next }));
    };
    const stopCounting = controller.events?.subscribe(({ type }) => count(type));
    count();
    let detach: (() => void) | undefined;
    const unbind = (this.#unbind = () => {
      listen('removeEventListener');
      stopCounting?.();
      detach?.();
    });
    // `events`, `sync-tabs`, `persist`: managers from resource-elements/managers (provider-hooks.ts).
    // registerProviderManagers() may also run later in the same task (a module evaluated after the
    // one that defined the provider): the hook is looked for again then, if still bound.
    const attach = () => {
      if (this.#unbind !== unbind) return;
      if (providerHooks.managers) {
        detach = providerHooks.managers.connect(this, controller, this.#states);
      } else if (
        // A misuse check: development-only (the attributes name managers nobody registered).
        DEV() &&
        this.matches('[events],[sync-tabs],[persist],[offline-queue]')
      ) {
        console.error(
          `<${this.localName}> needs registerProviderManagers() from 'resource-elements/managers' for events, sync-tabs, persist and offline-queue, called before the provider connects.`,
        );
      }
    };
    if (providerHooks.managers) attach();
    else queueMicrotask(attach);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'resource-provider': ResourceProvider;
  }
  interface HTMLElementEventMap {
    'resource-activity': CustomEvent<ResourceActivity>;
  }
}
