// The second page of the live tests: `?sync-tabs=…&persist=…&events=…&name=…` become the
// provider's attributes (name: the persisted record's name), under it the demo's "All" list.
import '../../src/index.js';
import '../../demo/todo-list.js';
import { Todo } from '../../demo/resources.js';
import { registerProviderManagers } from '../../src/managers/index.js';

const params = new URLSearchParams(location.search);
registerProviderManagers({
  entities: { Todo },
  persist: { name: params.get('name') ?? 'live-frame', throttle: 20 },
});
const provider = document.createElement('resource-provider');
for (const name of ['events', 'sync-tabs', 'persist']) {
  const value = params.get(name);
  if (value !== null) provider.setAttribute(name, value);
}
provider.innerHTML = '<demo-todo-list heading="All"></demo-todo-list>';
document.body.append(provider);
