// A tab of the offline queue tests: `?queue=name` names the provider's offline queue; the demo's
// offline switch (sessionStorage, per tab) says whether the tab starts offline. The test reaches
// the page's own modules through `window.offlineFrame`.
import '../../src/index.js';
import '../../demo/todo-list.js';
import { offlineMutations } from '../../demo/offline-switch.js';
import { TodoResource } from '../../demo/resources.js';
import { registerProviderManagers } from '../../src/managers/index.js';

const params = new URLSearchParams(location.search);
registerProviderManagers({ offlineQueue: { mutations: offlineMutations } });
const provider = document.createElement('resource-provider');
provider.setAttribute('offline-queue', params.get('queue') ?? 'e2e');
provider.innerHTML =
  '<offline-switch></offline-switch><demo-todo-list heading="Ada" userid="1"></demo-todo-list>';
document.body.append(provider);

declare global {
  interface Window {
    offlineFrame: {
      provider: typeof provider;
      TodoResource: typeof TodoResource;
      create: (typeof offlineMutations)['todo.create']['endpoint'];
      rejected: unknown[];
    };
  }
}
const rejected: unknown[] = [];
provider.addEventListener('resource-sync-rejected', (event) =>
  rejected.push((event as CustomEvent).detail),
);
window.offlineFrame = {
  provider,
  TodoResource,
  create: offlineMutations['todo.create']!.endpoint,
  rejected,
};
