/** What a request is: why it was made, and what the Controller holds of it while it runs. */
import type { RunContext } from '../protocol/types.js';
import type { Action } from '../store/actions.js';
import type { KeyRecord } from './records.js';
import type { InFlightRequest } from './types.js';

/**
 * Why a request is made: `FETCH` (`fetch`), `REFETCH` (`refetch`: never joins one in flight),
 * `IF_STALE` (`fetchIfStale`) and `REVALIDATE` (`revalidate`, which also sends when the last
 * attempt failed moments ago). The last two send only when the read needs it and nothing is in
 * flight, and nobody is assumed to await them.
 */
export const FETCH = 0;
export const REFETCH = 1;
export const IF_STALE = 2;
export const REVALIDATE = 3;
/** One of `FETCH`, `REFETCH`, `IF_STALE`, `REVALIDATE`. */
export type Intent = 0 | 1 | 2 | 3;

/** A request started and not settled. Its id orders outcomes, whatever the clock's resolution. */
export interface Request extends InFlightRequest {
  /** When it was sent (`RunContext.sending` moves it): its answer is as old as that. */
  startedAt: number;
  readonly record: KeyRecord;
  /** The dedupe key of a GET (the endpoint's own key, pagination field included). */
  readonly requestKey: string;
  readonly normalizeArgs: readonly unknown[];
  /** Its id when it has an optimistic entry, which its outcome's action removes. */
  readonly settles?: number | undefined;
  readonly abort: AbortController;
  /** True once a caller awaits it (`fetch`, `refetch`): then only the caller may give it up. */
  awaited: boolean;
  promise?: Promise<unknown>;
  /** Ends the wait before its next attempt, while it waits. */
  wake?: () => void;
  /** For a read: the mutations committed while it is in flight (see `commit`). */
  created?: Action[];
  /** A read of its own key: the context its run asks with, and keeps, a `validator` in. */
  conditional?: RunContext;
}

/** What `commit` reads of a request: `setResponse` commits as a request would. */
export type Committing = Pick<
  Request,
  'id' | 'endpoint' | 'key' | 'record' | 'normalizeArgs' | 'startedAt' | 'settles' | 'created'
> & { readonly conditional?: RunContext | undefined };
