// Following a cursor-paged operation (the events feed) item by item, with a position the caller can store.
// The server's cursor marks page ends only; a reader that stops inside a page stores `<page cursor>~<n>`
// (the page's own `after` and how many of its items were handed out), so resuming skips exactly those.
// The same rule in every client (docs/decisions/clients.md).

/** One page of a cursor-paged operation. */
export type CursorPage<T> = { items: T[]; nextCursor: string; hasMore: boolean };

const SEPARATOR = "~";

function parsePosition(position: string | undefined): { after: string | undefined; skip: number } {
  const at = position?.lastIndexOf(SEPARATOR) ?? -1;
  if (position === undefined || at < 0) return { after: position, skip: 0 };
  const count = position.slice(at + 1);
  if (!/^[0-9]{1,9}$/.test(count)) throw new TypeError(`not a feed position: ${position}`);
  return { after: position.slice(0, at) || undefined, skip: Number(count) };
}

/**
 * Every item after a stored position, page after page, until the feed has nothing more (`hasMore` false).
 * `cursor` is the position after the last item handed out: store it once that item is processed, and pass it
 * back as `after` to resume without missing or repeating one. A position too old for the server is a
 * `WarehouseApiError` with status 410 (code `GONE`): resynchronise, then follow again without `after`.
 */
export class CursorFeed<T> implements AsyncIterable<T> {
  #pageAfter: string | undefined;
  #handedOut: number;
  #page: CursorPage<T> | null = null;

  constructor(
    private readonly fetchPage: (after: string | undefined) => Promise<CursorPage<T>>,
    after?: string,
  ) {
    const position = parsePosition(after);
    this.#pageAfter = position.after;
    this.#handedOut = position.skip;
  }

  /** Where to resume: the position after the last item handed out (undefined before the first page). */
  get cursor(): string | undefined {
    if (this.#page && this.#handedOut >= this.#page.items.length) return this.#page.nextCursor;
    if (this.#handedOut === 0) return this.#pageAfter;
    return `${this.#pageAfter ?? ""}${SEPARATOR}${this.#handedOut}`;
  }

  /** Each pass reads until the feed has nothing more; a later pass continues from `cursor` (polling). */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    let fetched = false;
    for (;;) {
      const page = this.#page;
      if (page && this.#handedOut < page.items.length) {
        const item = page.items[this.#handedOut] as T;
        this.#handedOut++;
        yield item;
        continue;
      }
      if (page && fetched && !page.hasMore) return;
      if (page) {
        // A stored position can skip past this page's end: the rest is skipped on the next one.
        this.#handedOut = page.hasMore ? this.#handedOut - page.items.length : 0;
        this.#pageAfter = page.nextCursor;
      }
      this.#page = await this.fetchPage(this.#pageAfter);
      fetched = true;
    }
  }

  /** Every remaining item, in one array (the feed is read until it has nothing more). */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
