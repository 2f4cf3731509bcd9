// Events-feed readers: each tenant pages `GET /events` from where it left off (`after` = the last
// `nextCursor`), as an integrator polling the feed would. The checker holds what it got to every committed
// event exactly once, in commit order (checker.mjs, events-feed).

/** Where tenant `t`'s reader stands: the ids it got, in order, and the cursor to continue from. */
export const newFeed = () => ({ ids: [], cursor: undefined, busy: false });

/** Reads one page; answers whether more were already waiting. */
async function readPage(t, limit) {
  const page = await t.track("read-events", () =>
    t.client.events.list(t.feed.cursor ? { after: t.feed.cursor, limit } : { limit }),
  );
  t.feed.ids.push(...page.items.map((event) => event.id));
  t.feed.cursor = page.nextCursor;
  return page.hasMore;
}

export const readEvents = {
  name: "read-events",
  weight: 5,
  async run(t) {
    // One reader per tenant: with more clients than tenants, a page already being read is not read twice.
    if (t.feed.busy) return;
    t.feed.busy = true;
    try {
      await readPage(t, 100);
    } finally {
      t.feed.busy = false;
    }
  },
};

/**
 * Pages tenant `t`'s feed to its end (the final drain, after the load stopped). A page refused beyond the
 * client's retries (a greedy tenant's exhausted budget) is asked again after a pause.
 */
export async function drainFeed(t) {
  for (let failures = 0; ; ) {
    try {
      if (!(await readPage(t, 500))) return;
    } catch (error) {
      if (++failures > 5) throw error;
      await new Promise((done) => setTimeout(done, 15_000));
    }
  }
}
