import { LitElement, css, html, nothing } from 'lit';
import { PendingTaskEvent } from '../index.js';

/** A failed task below the boundary, and how to run it again. */
interface Failure {
  readonly error: unknown;
  readonly retry: (() => Promise<unknown>) | undefined;
  /** The element below the boundary that announced the task (its own node when none). */
  readonly source: Node;
}

/**
 * A loading boundary: while any element below it waits for data it has never shown (a
 * `ResourceController` in its first pending state, or any element that dispatches the
 * pending-task protocol's event), it shows its `fallback` slot instead of its content; when one
 * fails with nothing to show, its `error` slot, with a Retry button that refetches the failed
 * reads. The content stays connected the whole time, so its reads go on. Stale data shown while
 * it refreshes is no wait. Boundaries nest: the nearest one catches.
 *
 * @slot - The content.
 * @slot fallback - Shown while the content waits (default: "Loading…"). Its own reads, and the
 *   error slot's, are not the content's: the boundary around this one waits on them.
 * @slot error - Shown when a read failed (default: the error's message).
 * @csspart fallback - The fallback's wrapper.
 * @csspart error - The error's wrapper (role="alert").
 * @csspart retry - The Retry button.
 * @fires resource-boundary-error - When the boundary enters its error state; `detail.errors`.
 *
 * @example
 * ```html
 * <resource-boundary delay="200">
 *   <todo-board></todo-board>
 *   <p slot="fallback">Loading the board…</p>
 * </resource-boundary>
 * ```
 */
export class ResourceBoundary extends LitElement {
  static override properties = {
    delay: { type: Number },
    _state: { state: true },
  };

  /** The fallback, error and Retry parts' default look. */
  static override styles = css`
    :host {
      display: contents;
    }
    [hidden] {
      display: none !important;
    }
  `;

  /** Milliseconds a wait must last before the fallback shows (fast loads show no flash). */
  delay = 0;

  /** @internal What is shown: the content, the fallback or the error. */
  _state: 'content' | 'fallback' | 'error' = 'content';

  /** The tasks waited on, each with the element below the boundary that announced it. */
  readonly #pending = new Map<Promise<unknown>, Node>();
  #failures: Failure[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Drops the waits and failures of elements that left (a route changed the content). */
  readonly #watchContent = new MutationObserver(() => {
    if (!this.#dropDeparted()) return;
    this.requestUpdate();
    this.#refresh();
  });

  constructor() {
    super();
    // Listening from the constructor: children upgrade (and announce their reads) before this
    // element's own connectedCallback may run.
    this.addEventListener(PendingTaskEvent.eventName, this.#onTask as EventListener);
  }

  /** The errors of the failed reads, while the boundary shows its error state. */
  get errors(): readonly unknown[] {
    return this.#failures.map((failure) => failure.error);
  }

  /** True while the fallback is shown. */
  get waiting(): boolean {
    return this._state === 'fallback';
  }

  /**
   * Runs every failed task again; the fallback shows until they settle.
   * @example boundary.retry();
   */
  retry(): void {
    this.#dropDeparted();
    const failures = this.#failures;
    this.#failures = [];
    for (const { retry, source } of failures) {
      if (!retry) continue;
      // Another element's retry may throw at once or return no promise: it fails (or succeeds)
      // here like any task, not in the click handler.
      let task: Promise<unknown>;
      try {
        task = Promise.resolve(retry());
      } catch (error) {
        task = Promise.reject(error);
      }
      this.#track(task, retry, source);
    }
    this.#refresh();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#watchContent.observe(this, { childList: true, subtree: true });
    // Back after a move: what left meanwhile went unwatched, and the delay's timer stopped.
    if (this.#dropDeparted()) this.requestUpdate();
    this.#refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#watchContent.disconnect();
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  protected override render() {
    const state = this._state;
    const message = this.#failures
      .map(({ error }) => (error instanceof Error ? error.message : String(error)))
      .join('\n');
    return html`<div ?hidden=${state !== 'content'}><slot></slot></div>
      <div part="fallback" ?hidden=${state !== 'fallback'} aria-busy="true">
        <slot name="fallback">Loading…</slot>
      </div>
      <div part="error" role="alert" ?hidden=${state !== 'error'}>
        <slot name="error">${state === 'error' ? message : nothing}</slot>
        <button part="retry" @click=${() => this.retry()}>Retry</button>
      </div>`;
  }

  readonly #onTask = (event: Event): void => {
    const { complete, retry } = event as Partial<PendingTaskEvent>;
    if (!complete || typeof (complete as Promise<unknown>).then !== 'function') return;
    const source = event.target as Node;
    // A read inside the fallback or error slot is not part of the content: waiting on it would
    // keep the fallback up (or show an error) for the fallback's own data. An outer boundary
    // catches it instead, as it would any read outside this one.
    let child = source;
    while (child.parentNode && child.parentNode !== this) child = child.parentNode;
    const slot = child.parentNode === this && (child as Element).slot;
    if (slot === 'fallback' || slot === 'error') return;
    // The nearest boundary catches: outer ones do not also wait.
    event.stopPropagation();
    // The same work started over by itself (a read whose provider arrived late, or that was
    // fetched again): its new outcome replaces its old failure.
    if (retry) {
      this.#failures = this.#failures.filter((f) => f.retry !== retry || f.source !== source);
    }
    this.#track(complete, retry, source);
  };

  #track(task: Promise<unknown>, retry: (() => Promise<unknown>) | undefined, source: Node): void {
    this.#pending.set(task, source);
    const settle = (failure?: Failure) => {
      this.#pending.delete(task);
      // An element that left may end its work as it goes (an aborted fetch): not our error.
      if (failure && this.contains(source)) this.#failures.push(failure);
      this.#refresh();
    };
    task.then(
      () => settle(),
      (error: unknown) => settle({ error, retry, source }),
    );
    this.#refresh();
  }

  /**
   * Forgets the waits and failures of elements no longer below the boundary: what replaced them
   * must not stay hidden behind a wait nobody may end, or an error they can no longer mend. True
   * when one was dropped.
   */
  #dropDeparted(): boolean {
    const count = this.#failures.length + this.#pending.size;
    this.#failures = this.#failures.filter(({ source }) => this.contains(source));
    for (const [task, source] of this.#pending) {
      if (!this.contains(source)) this.#pending.delete(task);
    }
    return this.#failures.length + this.#pending.size < count;
  }

  #refresh(): void {
    if (this.#failures.length > 0 && this.#pending.size === 0) {
      this.#stopTimer();
      if (this._state === 'error') return;
      this._state = 'error';
      this.dispatchEvent(
        new CustomEvent('resource-boundary-error', {
          detail: { errors: this.errors },
          bubbles: true,
          composed: true,
        }),
      );
    } else if (this.#pending.size === 0) {
      this.#stopTimer();
      this._state = 'content';
    } else if (this._state !== 'fallback') {
      if (this.delay > 0) {
        this._state = this._state === 'error' ? 'fallback' : 'content';
        this.#timer ??= setTimeout(() => {
          this.#timer = undefined;
          if (this.#pending.size > 0) this._state = 'fallback';
        }, this.delay);
      } else {
        this._state = 'fallback';
      }
    }
  }

  #stopTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'resource-boundary': ResourceBoundary;
  }
}
