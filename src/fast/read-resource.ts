import { Observable } from '@microsoft/fast-element';
import type { ExpressionNotifier, FASTElement } from '@microsoft/fast-element';
import { ReadStatus } from '../core/index.js';
import type { EndpointLike, ReadOptions, Resolved } from '../core/index.js';
import { bindRead } from '../elements/bind.js';
import type { BoundReadState, ReadBinding } from '../elements/bind.js';
import type { ReadParams } from '../lit/resource-controller.js';
import { ObservedState, attach } from './observed-state.js';

/**
 * One read of a FAST element, made by `readResource`. `status`, `value`, `error` and `previous`
 * are FAST observables, each on its own: a template binding `${(x) => x.todos.value}` updates
 * when the value changes, not when only the status does.
 */
export interface ResourceRead<T> extends BoundReadState<T> {
  /** Fetches the read again, even when it is fresh; never rejects (a failure shows in `error`). */
  refetch(): Promise<void>;
}

const PENDING: BoundReadState<never> = {
  status: ReadStatus.Pending,
  value: undefined,
  error: undefined,
  previous: false,
};

class Read<T> extends ObservedState<BoundReadState<T>> implements ResourceRead<T> {
  constructor(readonly refetch: () => Promise<void>) {
    super(PENDING);
  }

  get status(): ReadStatus {
    return this.field('status');
  }

  get value(): T | undefined {
    return this.field('value');
  }

  get error(): unknown {
    return this.field('error');
  }

  get previous(): boolean {
    return this.field('previous');
  }
}

/**
 * Reads `endpoint(params(element))` for a FAST element, through the Controller of the nearest
 * `<resource-provider>` above it (as `bindRead` does, fetching as `ResourceController` does). The
 * read binds when the element connects and lets go when it disconnects (a FAST host behavior).
 * `params` is a function of the element, watched as a FAST binding is: when an observable it
 * read changes (an `@attr`, an `@observable`), it runs again at FAST's next update and the read
 * follows. It may return `null` to read nothing; one that throws reads nothing, and its error is
 * the read's. An endpoint that takes no params needs no function. With no provider above the
 * element, the read's error is the one `bindRead` gives.
 *
 * @example
 * ```ts
 * class TodoList extends FASTElement {
 *   @attr({ attribute: 'user-id', converter: nullableNumberConverter }) userId = 1;
 *   readonly todos = readResource(this, TodoResource.getList, (x) => ({ userId: x.userId }));
 * }
 * // in its template: ${repeat((x) => x.todos.value ?? [], html<Todo>`<li>${(t) => t.title}</li>`)}
 * ```
 */
export function readResource<H extends FASTElement, E extends EndpointLike, T = Resolved<E>>(
  element: H,
  endpoint: E,
  params?: (element: H) => ReadParams<E> | null,
  options?: ReadOptions<Resolved<E>, T>,
): ResourceRead<T> {
  let binding: ReadBinding<E, T> | undefined;
  const read = new Read<T>(() => binding?.refetch() ?? Promise.resolve());
  /** Watches what `params` reads while the element is connected. */
  let watcher: ExpressionNotifier<H, ReadParams<E> | null> | undefined;
  /** What the params function threw, if it did the last time it ran. */
  let failure: { error: unknown } | undefined;
  let bound: BoundReadState<T> = PENDING;

  const show = () =>
    read.set(failure ? { ...PENDING, status: ReadStatus.Error, error: failure.error } : bound);
  /** The params now (and what they read is watched again); null when the function threw. */
  const current = (): ReadParams<E> | null => {
    failure = undefined;
    try {
      return watcher ? watcher.observe(element) : (undefined as ReadParams<E>);
    } catch (error) {
      failure = { error };
      return null;
    }
  };

  attach(element, {
    connectedCallback() {
      // Volatile: a function with a condition reads other observables from one run to the next.
      watcher =
        params &&
        Observable.binding<H, ReadParams<E> | null>(
          params,
          {
            handleChange() {
              binding?.setArgs(current());
              show();
            },
          },
          true,
        );
      const first = current();
      // The callback runs once before bindRead returns: it must not need `binding`.
      binding = bindRead(
        element,
        endpoint,
        first,
        (state) => {
          bound = state;
          show();
        },
        options,
      );
    },
    disconnectedCallback() {
      watcher?.dispose();
      watcher = undefined;
      binding?.unbind();
      binding = undefined;
    },
  });
  return read;
}
