/**
 * Everything the Controller knows about one store key besides what the store holds: one record,
 * so nothing has to keep parallel maps in step.
 */
import type { EndpointLike, ResponseInfo } from '../protocol/types.js';
import { sameResponse } from '../store/read-response.js';

/** How many differing reads of one key keep their identity (readers with different endpoints). */
const READS_PER_KEY = 4;

export class KeyEntry {
  /** The newest request whose data was committed (0: none). */
  dataSeq = 0;
  /** The newest request whose error was committed (0: none). */
  errorSeq = 0;
  /** Soft failures in a row, for the backoff; a success clears it. */
  failures = 0;
  /** `subscribe()` calls for this key. */
  subscribers = 0;
  /** Requests for this key started and not settled. */
  inFlight = 0;
  /**
   * When it was last written, restored, or left by its last subscriber and request (the
   * Controller's clock; 0: never). Garbage collection counts its time from here.
   */
  lastUsed = 0;
  /**
   * The endpoint and args it was last subscribed to or requested with: how to read it again
   * (revalidation, devtools), and the schema to walk its stored result with (GC).
   */
  shown?: { readonly endpoint: EndpointLike; readonly args: readonly unknown[] };
  /** Last reads handed out, so an unchanged read is the same object. */
  #reads: ResponseInfo[] = [];

  constructor(readonly key: string) {}

  /** The read equal to `info` handed out before, or `info` itself (remembered). */
  sameRead(info: ResponseInfo): ResponseInfo {
    for (const read of this.#reads) if (sameResponse(read, info)) return read;
    this.#reads.unshift(info);
    if (this.#reads.length > READS_PER_KEY) this.#reads.pop();
    return info;
  }

  /** Every read is void: even an equal one must be a new object (after a reset). */
  forgetReads(): void {
    this.#reads = [];
  }

  /** True when nobody subscribes to it and no request for it is in flight. */
  get idle(): boolean {
    return this.subscribers === 0 && this.inFlight === 0;
  }
}

/** The KeyEntry of every key the Controller knows, made on first use. */
export class KeyEntries extends Map<string, KeyEntry> {
  of(key: string): KeyEntry {
    let entry = this.get(key);
    if (!entry) this.set(key, (entry = new KeyEntry(key)));
    return entry;
  }
}
