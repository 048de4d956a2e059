/**
 * `resource-elements/signals`: reads and entities of the store as standard signals
 * (`signal-polyfill`, the one `@lit-labs/signals` uses). With `SignalWatcher` and `watch()`, a
 * change to one entity updates the bindings that show it without rendering their hosts again.
 * Kept out of the main entry: an app that uses no signals pays nothing for them.
 * @module resource-elements/signals
 */
export { entitySignal, readSignal } from './signals.js';
export type { ControllerSource, ReadSignal, ReadState, SignalSource } from './signals.js';
