/**
 * The key under which a Controller hands its internals to the built-in managers (GC needs the
 * store and the optimistic queue, polling the timers). It is not exported from the package: a
 * user's manager works through the public methods and `events`.
 */
export const controllerInternals: unique symbol = Symbol('resource-elements.internals');
