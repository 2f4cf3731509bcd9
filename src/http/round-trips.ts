/**
 * The sequential network round trips on one request's critical path: the D1 and Durable Object calls
 * the request waits for. Calls that overlap count once: a call's depth is one more than the deepest call
 * that had finished when it started, and `hops` is the deepest depth so far. Work handed to `waitUntil`
 * must not be tracked (it would seem to precede the calls that start after it finishes).
 */
export class RoundTrips {
  hops = 0;
  #finishedDepth = 0;

  /** Waits for a call that has just started, counting it. */
  async track<T>(call: Promise<T>): Promise<T> {
    const depth = this.#finishedDepth + 1;
    this.hops = Math.max(this.hops, depth);
    try {
      return await call;
    } finally {
      this.#finishedDepth = Math.max(this.#finishedDepth, depth);
    }
  }
}
