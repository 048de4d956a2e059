/**
 * `resource-elements/managers`: server push, tab sync, persistence and the offline queue, each a manager of the
 * Controller, and the `<resource-provider>` attributes that turn them on. Kept out of the main
 * entry: an app that uses none of them pays nothing for them.
 * @module resource-elements/managers
 */
export { applyPushMessage } from './push-message.js';
export type {
  DeleteMessage,
  EntityRegistry,
  PushMessage,
  RevalidateMessage,
  UpsertMessage,
} from './push-message.js';
export { PushManager } from './push.js';
export type { PushConnection, PushHandlers, PushManagerOptions, PushSource } from './push.js';
export { eventSource } from './event-source.js';
export type { EventSourceOptions } from './event-source.js';
export { TabSyncManager } from './tab-sync.js';
export type { TabSyncMessage, TabSyncOptions } from './tab-sync.js';
export { PersistManager } from './persist.js';
export type { PersistedRecord, PersistOptions } from './persist.js';
export { indexedDbStorage } from './storage.js';
export type { PersistStorage } from './storage.js';
export { decodeState, encodeState } from './state-codec.js';
export { OfflineQueueManager } from './offline-queue.js';
export type {
  OfflineQueueOptions,
  OfflineQueueRejection,
  QueuedMutation,
  QueuedMutationOptions,
  RecordedAnswer,
} from './offline-queue.js';
export { registerProviderManagers } from './provider.js';
export type { ProviderManagersOptions } from './provider.js';
