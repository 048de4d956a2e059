// The optional managers entry: registerProviderManagers() in the app's entry (the provider it
// defines connects first; the hook is found in the same task), then `sync-tabs` on the provider.
// Two tabs of this page share what each writes, through a BroadcastChannel.
import { registerProviderManagers } from 'resource-elements/managers';
import { Item } from './resources.js';
import './item-list.js';

registerProviderManagers({ entities: { Item } });
