/**
 * Revalidation as a manager: when the network comes back or the page is shown again, every
 * subscribed read that is stale or invalid is fetched, even if its last attempt failed moments
 * ago (a user coming back expects a retry).
 */
import type { Controller } from '../controller/controller.js';
import type { ControllerEvent } from '../controller/events.js';
import type { Manager } from '../controller/manager.js';
import type { EndpointLike } from '../protocol/types.js';

/** @example new Controller({ managers: [new ConnectivityManager()] }) // one is attached by default */
export class ConnectivityManager implements Manager {
  attach(controller: Controller): () => void {
    let online = true;
    /** Subscribed reads by store key: the first subscriber's endpoint and args, and a count. */
    const reads = new Map<
      string,
      { endpoint: EndpointLike; args: readonly unknown[]; count: number }
    >();
    const revalidate = (): void => {
      for (const { endpoint, args } of reads.values()) {
        controller.revalidate(endpoint, ...(args as never[]));
      }
    };
    const onEvent = (event: ControllerEvent): void => {
      switch (event.type) {
        case 'subscription': {
          const read = reads.get(event.key);
          if (event.phase === 'add') {
            if (read) read.count++;
            else reads.set(event.key, { endpoint: event.endpoint, args: event.args, count: 1 });
          } else if (read && --read.count === 0) {
            reads.delete(event.key);
          }
          break;
        }
        case 'online':
          online = true;
          revalidate();
          break;
        case 'offline':
          online = false;
          break;
        case 'focus':
          if (online) revalidate();
          break;
      }
    };
    const stop = controller.events.subscribe(onEvent);
    return () => {
      stop();
      reads.clear();
    };
  }
}
