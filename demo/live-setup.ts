// Turns on the <resource-provider> attributes of index.html (events, sync-tabs, persist,
// offline-queue). It must
// run before the provider connects, so main.ts imports it first, and nothing it imports defines
// the provider (resources.ts takes what it needs from the core).
import { registerProviderManagers } from '../src/managers/index.js';
import { Todo } from './resources.js';
import { offlineMutations } from './offline-switch.js';

registerProviderManagers({ entities: { Todo }, offlineQueue: { mutations: offlineMutations } });
