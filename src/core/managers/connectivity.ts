/**
 * Revalidation as a manager: when the network comes back or the page is shown again, every
 * subscribed read that is stale or invalid is fetched, even if its last attempt failed moments
 * ago (a user coming back expects a retry). Which reads are subscribed is the Controller's own
 * record per key (`reads()`), as its last subscriber read it.
 */
import type { Controller } from '../controller/controller.js';
import type { Manager } from '../controller/manager.js';

/** Attached by every Controller, after polling. */
export const connectivityManager: Manager = {
  attach(controller: Controller): () => void {
    return controller.events.subscribe(({ type }) => {
      if (type === 'online' || (type === 'focus' && controller.isOnline)) {
        for (const { subscribers, shown } of controller.reads()) {
          if (subscribers > 0 && shown)
            controller.revalidate(shown.endpoint, ...(shown.args as never[]));
        }
      }
    });
  },
};
