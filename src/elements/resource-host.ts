import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** A class whose instances are `T` (abstract classes included). */
type Constructor<T> = abstract new (...args: any[]) => T;

/**
 * What `ResourceHostMixin` adds to an element: Lit's `ReactiveControllerHost` contract, and the
 * `render()` hook the element's author writes.
 */
export interface ResourceHostElement extends ReactiveControllerHost {
  /** True once the element has rendered (a `ResourceController` reads it when a provider answers). */
  readonly hasUpdated: boolean;
  /**
   * Called after the controllers' `hostUpdate` and before their `hostUpdated`, at most once per
   * microtask however many updates were requested: write the element's DOM here.
   */
  render(): void;
  /** Tells each controller the element connected, then requests an update; call `super` first. */
  connectedCallback(): void;
  /** Tells each controller the element left (its subscriptions end); call `super` first. */
  disconnectedCallback(): void;
}

/**
 * Makes any custom element a host for `ResourceController`, `MutationController` and
 * `InfiniteController`, without Lit: it keeps the controllers, tells them when it connects and
 * disconnects, and on each `requestUpdate()` (batched in a microtask) calls their `hostUpdate`,
 * then the element's own `render()`, then their `hostUpdated`. `updateComplete` resolves after
 * that. An element that overrides `connectedCallback` or `disconnectedCallback` calls `super`.
 *
 * @example
 * ```ts
 * class TodoTitle extends ResourceHostMixin(HTMLElement) {
 *   #todo = new ResourceController(this, TodoResource.get, () => ({ id: this.dataset.id! }));
 *   render() {
 *     this.textContent = this.#todo.render({
 *       pending: () => 'Loading…',
 *       complete: (todo) => todo.title,
 *       error: (e) => `Failed: ${(e as Error).message}`,
 *     }) ?? '';
 *   }
 * }
 * customElements.define('todo-title', TodoTitle);
 * ```
 */
export function ResourceHostMixin<B extends Constructor<HTMLElement>>(
  Base: B,
): B & Constructor<ResourceHostElement> {
  abstract class ResourceHost extends Base implements ResourceHostElement {
    readonly #controllers = new Set<ReactiveController>();
    /** The update requested and not run yet; settles after it ran. */
    #pending: Promise<boolean> | undefined;
    #updated = false;

    get hasUpdated(): boolean {
      return this.#updated;
    }

    /** Resolves once no update is pending (true), or rejects with what `render()` threw. */
    get updateComplete(): Promise<boolean> {
      return this.#pending ?? Promise.resolve(true);
    }

    abstract render(): void;

    addController(controller: ReactiveController): void {
      this.#controllers.add(controller);
      // A controller added to a connected element is told at once, as Lit does.
      if (this.isConnected) controller.hostConnected?.();
    }

    removeController(controller: ReactiveController): void {
      this.#controllers.delete(controller);
    }

    requestUpdate(): void {
      this.#pending ??= this.#schedule();
    }

    connectedCallback(): void {
      (Base.prototype as Partial<ResourceHostElement>).connectedCallback?.call(this);
      for (const controller of [...this.#controllers]) controller.hostConnected?.();
      this.requestUpdate();
    }

    disconnectedCallback(): void {
      (Base.prototype as Partial<ResourceHostElement>).disconnectedCallback?.call(this);
      for (const controller of [...this.#controllers]) controller.hostDisconnected?.();
    }

    async #schedule(): Promise<boolean> {
      // Every request made in this task (and its microtasks before this one) is one update.
      await null;
      // Cleared first: an update requested while this one runs is the next one.
      this.#pending = undefined;
      // A disconnected element renders when it connects again (connectedCallback asks).
      if (this.isConnected) {
        const controllers = [...this.#controllers];
        for (const controller of controllers) controller.hostUpdate?.();
        this.render();
        this.#updated = true;
        for (const controller of controllers) controller.hostUpdated?.();
      }
      return !this.#pending;
    }
  }
  return ResourceHost;
}
