/**
 * Where `PersistManager` keeps its data: a tiny async key-value interface, with IndexedDB behind
 * it in the browser. Tests and other hosts can give their own.
 */

/** A place to keep one value per name. Any method may reject (storage unavailable or full). */
export interface PersistStorage {
  /** The value kept under `name`, or undefined. */
  get(name: string): Promise<unknown>;
  /** Keeps `value` under `name`. */
  set(name: string, value: unknown): Promise<void>;
  /** Forgets the value under `name`. */
  delete(name: string): Promise<void>;
}

const STORE = 'stores';

/**
 * Keeps values in the IndexedDB database `database` (one object store, keyed by name). A
 * connection is opened per operation and closed after it: nothing stays open between writes, and
 * another tab's upgrade is never blocked. Without `factory`, the host's `indexedDB` is looked up
 * at each operation (in some sandboxed frames that lookup throws: the operation rejects).
 * @example new PersistManager({ buster: 'v1', storage: indexedDbStorage(indexedDB) });
 */
export function indexedDbStorage(
  factory?: IDBFactory,
  database = 'resource-elements',
): PersistStorage {
  const run = <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest) =>
    new Promise<T>((resolve, reject) => {
      const idb = factory ?? globalThis.indexedDB;
      if (!idb) throw new Error('IndexedDB is not available here');
      const opening = idb.open(database, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
      opening.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
      opening.onerror = () => reject(opening.error ?? new Error('IndexedDB did not open'));
      opening.onsuccess = () => {
        const db = opening.result;
        try {
          const transaction = db.transaction(STORE, mode);
          const request = work(transaction.objectStore(STORE));
          let result: T;
          request.onsuccess = () => (result = request.result as T);
          transaction.oncomplete = () => {
            db.close();
            resolve(result);
          };
          transaction.onerror = transaction.onabort = () => {
            db.close();
            reject(transaction.error ?? request.error ?? new Error('IndexedDB transaction failed'));
          };
        } catch (error) {
          db.close();
          reject(error);
        }
      };
    });
  return {
    get: (name) => run('readonly', (store) => store.get(name)),
    set: (name, value) => run('readwrite', (store) => store.put(value, name)),
    delete: (name) => run('readwrite', (store) => store.delete(name)),
  };
}
