import type { FASTElement } from '@microsoft/fast-element';
import type { EndpointLike, Resolved } from '../core/index.js';
import { bindMutation } from '../elements/bind.js';
import type { MutationBinding, MutationState } from '../elements/bind.js';
import type { MutationStatus } from '../lit/mutation-controller.js';
import { missingProvider } from '../lit/provider-request.js';
import { ObservedState, attach } from './observed-state.js';

/**
 * One mutation of a FAST element, made by `mutateResource`. `status`, `value` and `error` (and
 * `pending`, read from `status`) are FAST observables, each on its own.
 */
export interface ResourceMutation<E extends EndpointLike> extends MutationState<E> {
  /** True while the latest run is in flight: what a submit button's `disabled` wants. */
  readonly pending: boolean;
  /**
   * Runs the endpoint through the provider above the element; a failure also shows in `error`,
   * so the promise may be ignored. Run while the element is not connected, it rejects with the
   * missing-provider error.
   */
  run(...args: Parameters<E>): Promise<Resolved<E>>;
  /** Back to `idle`; runs in flight no longer change the state. */
  reset(): void;
}

const IDLE: MutationState<never> = { status: 'idle', value: undefined, error: undefined };

class Mutation<E extends EndpointLike>
  extends ObservedState<MutationState<E>>
  implements ResourceMutation<E>
{
  constructor(
    readonly run: (...args: Parameters<E>) => Promise<Resolved<E>>,
    readonly reset: () => void,
  ) {
    super(IDLE);
  }

  get status(): MutationStatus {
    return this.field('status');
  }

  get value(): Resolved<E> | undefined {
    return this.field('value');
  }

  get error(): unknown {
    return this.field('error');
  }

  get pending(): boolean {
    return this.status === 'pending';
  }
}

/**
 * A mutation for a FAST element: `run(...args)` sends `endpoint(...args)` through the Controller
 * of the nearest `<resource-provider>` above it (as `bindMutation` does), and `status`
 * (`idle`, `pending`, `success`, `error`), `value` and `error` are the latest run's, as FAST
 * observables. Bound while the element is connected (a FAST host behavior): when it disconnects
 * the state is `idle` again, and a run still in flight then settles its promise only. With no
 * provider above, `run` rejects with the error `bindMutation` gives.
 *
 * @example
 * ```ts
 * class TodoAdder extends FASTElement {
 *   readonly create = mutateResource(this, TodoResource.getList.push);
 * }
 * // in its template:
 * // <button ?disabled=${(x) => x.create.pending} @click=${(x) => x.create.run({ title: 'New', userId: 1 })}>
 * ```
 */
export function mutateResource<E extends EndpointLike>(
  element: FASTElement,
  endpoint: E,
): ResourceMutation<E> {
  let binding: MutationBinding<E> | undefined;
  const mutation: Mutation<E> = new Mutation<E>(
    (...args) => {
      if (binding) return binding.run(...args);
      const error = missingProvider(element, ' to run a mutation');
      mutation.set({ status: 'error', value: undefined, error });
      const failed = Promise.reject(error);
      // Shown in `error` as well: a caller that ignores the promise leaves no unhandled rejection.
      failed.catch(() => {});
      return failed;
    },
    () => binding?.reset() ?? mutation.set(IDLE),
  );
  attach(element, {
    connectedCallback() {
      binding = bindMutation(element, endpoint, (state) => mutation.set(state));
      mutation.set(binding.state);
    },
    disconnectedCallback() {
      binding?.unbind();
      binding = undefined;
      mutation.set(IDLE);
    },
  });
  return mutation;
}
