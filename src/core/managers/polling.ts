/**
 * Polling as a manager: the subscribers of one request share one timer at the smallest
 * `pollFrequency` among them; it stops when the last leaves and pauses while offline.
 */
import type { Controller } from '../controller/controller.js';
import type { ControllerEvent } from '../controller/events.js';
import type { Manager } from '../controller/manager.js';
import { PollGroup } from './poll-group.js';
import type { Interest } from './poll-group.js';

const ignore = (): void => {};

/** @example new Controller({ managers: [new PollingManager()] }) // one is attached by default */
export class PollingManager implements Manager {
  attach(controller: Controller): () => void {
    const { timers } = controller;
    let online = true;
    const groups = new Map<string, PollGroup>();
    /** Each subscription's interest and the function that ends it, oldest first per args. */
    const interests = new Map<string, { interest: Interest; leave: () => void }[]>();
    const host = {
      timers,
      isOnline: () => online,
      poll: (interest: Interest) =>
        void controller.fetch(interest.endpoint, ...(interest.args as never[])).catch(ignore),
      countTimer: ignore,
    };

    const onEvent = (event: ControllerEvent): void => {
      if (event.type === 'online' || event.type === 'offline') {
        online = event.type === 'online';
        for (const group of groups.values()) group.update();
        return;
      }
      if (event.type !== 'subscription') return;
      let requestKey: string;
      try {
        requestKey = event.endpoint.key(...event.args);
      } catch {
        return;
      }
      if (event.phase === 'add') {
        let group = groups.get(requestKey);
        if (!group) groups.set(requestKey, (group = new PollGroup(host)));
        const interest: Interest = { endpoint: event.endpoint, args: event.args };
        const list = interests.get(requestKey) ?? [];
        list.push({ interest, leave: group.subscribe(interest) });
        interests.set(requestKey, list);
        return;
      }
      const list = interests.get(requestKey);
      const index = list?.findIndex(({ interest }) => interest.endpoint === event.endpoint) ?? -1;
      if (!list || index < 0) return;
      list.splice(index, 1)[0]!.leave();
      if (list.length === 0) interests.delete(requestKey);
      const group = groups.get(requestKey);
      if (group && group.size === 0) {
        group.stop();
        groups.delete(requestKey);
      }
    };

    const stop = controller.events.subscribe(onEvent);
    return () => {
      stop();
      for (const group of groups.values()) group.stop();
      groups.clear();
      interests.clear();
    };
  }
}
