/**
 * What a server pushes, whatever carries it (Server-Sent Events, a WebSocket, a worker), and how
 * a message lands in the store. DOM-free: it only calls the Controller's public methods.
 */
import type { Controller, EntityClass } from '../core/index.js';

/** An entity changed or was created: `data` is its new (possibly partial) value. */
export interface UpsertMessage {
  readonly type: 'upsert';
  /** The entity class's `static key`, e.g. `'Todo'`. */
  readonly entity: string;
  readonly data: Readonly<Record<string, unknown>>;
  /**
   * The message's id: a source resumes after the last one it saw. A finite number is kept as its
   * text (`lastEventId` is a string).
   */
  readonly id?: string | number | undefined;
}

/**
 * An entity is gone: it is marked INVALID, so lists drop it and reads that require it fetch again
 * (a read still INVALID right after that answer is an error, never another request).
 */
export interface DeleteMessage {
  readonly type: 'delete';
  readonly entity: string;
  readonly pk: string | number;
  readonly id?: string | number | undefined;
}

/**
 * The source missed changes it cannot replay (`gap`), or the server's data started over
 * (`reset`): what is shown is fetched again, everything else is invalidated.
 */
export interface RevalidateMessage {
  readonly type: 'gap' | 'reset';
  readonly id?: string | number | undefined;
}

/**
 * One pushed change. A WebSocket or any other source sends the same JSON.
 * @example
 * const message: PushMessage = { type: 'upsert', entity: 'Todo', data: { id: '1', title: 'Hi' } };
 */
export type PushMessage = UpsertMessage | DeleteMessage | RevalidateMessage;

/**
 * Entity classes by their `static key`: how a message's `entity` finds its class.
 * @example const entities: EntityRegistry = { Todo, User };
 */
export type EntityRegistry = Readonly<Record<string, EntityClass>>;

/**
 * Writes one upsert or deletion into the store, so every view that shows the entity updates.
 * Throws, changing nothing, when the message is malformed or names an entity not in `entities`.
 * `gap` and `reset` are not entity changes: the caller decides what to fetch again.
 * @example applyPushMessage(controller, { Todo }, { type: 'delete', entity: 'Todo', pk: '1' });
 */
export function applyPushMessage(
  controller: Controller,
  entities: EntityRegistry,
  message: PushMessage,
): void {
  if (message === null || typeof message !== 'object') {
    throw new TypeError(`A push message must be an object; got ${String(message)}.`);
  }
  if (message.type !== 'upsert' && message.type !== 'delete') {
    if (message.type === 'gap' || message.type === 'reset') return;
    throw new TypeError(
      `Unknown push message type "${String((message as { type?: unknown }).type)}": expected upsert, delete, gap or reset.`,
    );
  }
  const Entity = Object.hasOwn(entities, message.entity) ? entities[message.entity] : undefined;
  if (!Entity) {
    throw new TypeError(
      `Push message names entity "${String(message.entity)}", which the registry does not have ` +
        `(it has: ${Object.keys(entities).join(', ') || 'nothing'}). Add the class to \`entities\`.`,
    );
  }
  if (message.type === 'upsert') {
    controller.set(Entity, message.data);
    return;
  }
  const { pk } = message as { pk: unknown };
  // Anything else would be turned into a pk such as "undefined" or "[object Object]".
  if (typeof pk !== 'string' && typeof pk !== 'number') {
    throw new TypeError(
      `Push message deleting ${message.entity} has no usable pk (got ${describePk(pk)}): ` +
        'expected a string or a number.',
    );
  }
  controller.invalidate(Entity, String(pk));
}

function describePk(pk: unknown): string {
  if (pk === null || typeof pk !== 'object') return String(pk);
  return Array.isArray(pk) ? 'an array' : 'an object';
}
