import { LitElement, css, html } from 'lit';
import { ContextProvider } from '@lit/context';
import type { ControllerLike } from '../core/index.js';
import { controllerContext } from './controller-context.js';
import { createController } from './create-controller.js';
import { connectManagers, providerHooks } from './provider-hooks.js';

/**
 * Owns one Controller and provides it, through `controllerContext`, to every element below it.
 * The Controller is made on first use, unless one was assigned to `controller` before. The
 * element has no layout box of its own: its children render as if it were not there. While it is
 * connected, the window's `online`, `offline` and `visibilitychange` events reach the Controller,
 * which revalidates what is shown.
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
export class ResourceProvider extends LitElement {
  static override styles = css`
    :host {
      display: contents;
    }
  `;

  #controller: ControllerLike | undefined;
  readonly #provider = new ContextProvider(this, { context: controllerContext });
  #detachManagers: (() => void) | undefined;

  constructor() {
    super();
    // A Controller assigned before the element upgraded sits in an own property that would hide
    // the accessor: move it behind the accessor.
    if (Object.hasOwn(this, 'controller')) {
      const assigned = (this as { controller?: ControllerLike }).controller;
      delete (this as { controller?: ControllerLike }).controller;
      if (assigned) this.controller = assigned;
    }
  }

  /** The Controller provided to descendants; made on first read unless one was assigned. */
  get controller(): ControllerLike {
    return (this.#controller ??= providerHooks.managers?.create(this) ?? createController());
  }

  set controller(controller: ControllerLike) {
    this.#controller = controller;
    // Consumers subscribe, so replacing a connected provider's Controller rebinds them.
    if (this.isConnected) this.#provider.setValue(controller);
  }

  override connectedCallback(): void {
    // The value must be in place before the provider announces itself (in super), so late
    // consumers that ask again receive a Controller, not undefined.
    this.#provider.setValue(this.controller);
    super.connectedCallback();
    const view = this.ownerDocument.defaultView;
    view?.addEventListener('online', this.#onOnline);
    view?.addEventListener('offline', this.#onOffline);
    this.ownerDocument.addEventListener('visibilitychange', this.#onVisibilityChange);
    // `events`, `sync-tabs`, `persist`: managers from resource-elements/managers (provider-hooks.ts).
    this.#detachManagers = connectManagers(this, this.controller);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#detachManagers?.();
    this.#detachManagers = undefined;
    const view = this.ownerDocument.defaultView;
    view?.removeEventListener('online', this.#onOnline);
    view?.removeEventListener('offline', this.#onOffline);
    this.ownerDocument.removeEventListener('visibilitychange', this.#onVisibilityChange);
  }

  protected override render() {
    return html`<slot></slot>`;
  }

  readonly #onOnline = () => this.controller.online();
  readonly #onOffline = () => this.controller.offline();
  readonly #onVisibilityChange = () => {
    if (this.ownerDocument.visibilityState === 'visible') this.controller.focus();
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'resource-provider': ResourceProvider;
  }
}
