import { Observable } from '@microsoft/fast-element';
import type { FASTElement, HostBehavior } from '@microsoft/fast-element';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

// What readResource and mutateResource share: a state whose fields FAST observes one by one, and
// the element's controller to attach a behavior to.

/**
 * A state held whole and read field by field, each field a FAST observable: a binding that reads
 * `status` subscribes to `status` alone, and hears of it only when a new state changes it.
 */
export class ObservedState<S extends object> {
  #state: S;

  constructor(initial: S) {
    this.#state = initial;
  }

  /** One field of the state, recorded as read by the binding being evaluated (if any). */
  protected field<K extends keyof S & string>(name: K): S[K] {
    Observable.track(this, name);
    return this.#state[name];
  }

  /**
   * Replaces the state, then notifies each field that changed: a subscriber told of one reads
   * the others from the new state already.
   */
  set(next: S): void {
    const before = this.#state;
    this.#state = next;
    for (const name of Object.keys(next) as (keyof S & string)[]) {
      if (!Object.is(before[name], next[name])) Observable.notify(this, name);
    }
  }
}

/**
 * Adds `behavior` to a FAST element (its connected and disconnected callbacks run with the
 * element's), or throws for an element that is not one.
 */
export function attach<H extends FASTElement>(element: H, behavior: HostBehavior<H>): void {
  const controller = (element as Partial<FASTElement>).$fastController;
  if (!controller) {
    throw new TypeError(
      `<${element.localName}> has no $fastController${
        DEV()
          ? ': readResource and mutateResource bind to a FASTElement; for any other element use bindRead and bindMutation from resource-elements/elements'
          : ''
      }.`,
    );
  }
  controller.addBehavior(behavior as HostBehavior<HTMLElement>);
}
