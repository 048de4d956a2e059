// Bundle size of resource-elements beside its peers, all bundled with the same settings
// (scripts/size.mjs). `npm test` enforces our budgets; this only prints.
import { report } from '../scripts/size.mjs';

await report({ withPeers: true });
