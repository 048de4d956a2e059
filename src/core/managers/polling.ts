/**
 * Polling as a manager: the subscribers of one read (store key) share one timer at the smallest
 * `pollFrequency` among them; it stops when the last leaves and pauses while offline. It knows the
 * subscribers from the Controller's `subscription` events only, and the network from
 * `controller.isOnline` (its `online` and `offline` events say when to look again).
 */
import type { Controller } from '../controller/controller.js';
import type { SubscriptionEvent } from '../controller/events.js';
import type { Manager } from '../controller/manager.js';
import { ignore, repeat } from '../env/timers.js';
import { entry } from '../util/own.js';

/** The subscriptions to one store key, oldest first; its fields: the timer that polls them. */
interface Group extends Array<SubscriptionEvent> {
  /** The frequency the timer runs at; Infinity: no timer. */
  frequency?: number | undefined;
  stop?: (() => void) | undefined;
  /** Whom the timer polls for: kept current even when the frequency does not change. */
  polled?: SubscriptionEvent | undefined;
}

/** Attached by every Controller, first. */
export const pollingManager: Manager = {
  attach(controller: Controller): () => void {
    const groups = new Map<string, Group>();
    /** Starts, restarts or stops the group's timer to match its subscribers and the network. */
    const update = (group: Group): void => {
      let every = Infinity;
      // The oldest of the fastest; Infinity means never (a timer would cap it at 24.8 days and
      // poll then), and no frequency or one not above 0 does not poll; offline, none polls (whom
      // it would poll is found again when the network is back).
      for (const interest of group) {
        const ms = interest.endpoint.pollFrequency!;
        if (controller.isOnline && ms > 0 && ms < every) {
          every = ms;
          group.polled = interest;
        }
      }
      if (every === group.frequency) return;
      group.stop?.();
      group.frequency = every;
      group.stop =
        every < Infinity
          ? repeat(
              controller.timers,
              () =>
                void controller
                  .fetch(group.polled!.endpoint, ...(group.polled!.args as never[]))
                  .catch(ignore),
              every,
            )
          : undefined;
    };
    const stop = controller.events.subscribe((event) => {
      if (event.type === 'online' || event.type === 'offline') groups.forEach(update);
      if (event.type !== 'subscription') return;
      // By store key, as subscriptions count (a key the endpoint could not build has none).
      let group = groups.get(event.key);
      if (event.phase === 'add') {
        (group = entry(groups, event.key, Array)).push(event);
      } else {
        const index = group?.findIndex(({ endpoint }) => endpoint === event.endpoint);
        if (!group || index! < 0) return;
        group.splice(index!, 1);
        if (group.length === 0) groups.delete(event.key);
      }
      update(group);
    });
    return () => {
      stop();
      for (const group of groups.values()) group.stop?.();
      groups.clear();
    };
  },
};
