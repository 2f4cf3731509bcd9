// The same multi-tenant write load (stock adjustments, each tenant on its own SKU) against tenants all placed on
// one shard, then against as many tenants spread over two shards, in one run (issue #15 item 7).
// Run: npm run bench -- shards   (or: node bench/shards.mjs)
import { adjustmentTarget, createTenant, load, report, startApi } from "./lib.mjs";

const TENANTS = 8;
const DURATION = 10;
const api = await startApi({ port: 8850, persistTo: "/tmp/bench-shards-state", fresh: true });
try {
  /** A tenant on `shard` with one stocked location: the adjustment request it sends. */
  async function adjuster(shard) {
    const tenant = await createTenant(api.api, "enterprise", shard);
    return (await adjustmentTarget(api.api, tenant, "SH")).adjust;
  }
  /** Every tenant loaded at once (two connections each); the sum of their throughputs. */
  async function together(targets) {
    const results = await Promise.all(targets.map((t) => load({ ...t, connections: 2, duration: DURATION })));
    const sum = (pick) => results.reduce((total, r) => total + pick(r), 0);
    return {
      requestsPerSecond: sum((r) => r.requestsPerSecond),
      p50: Math.max(...results.map((r) => r.p50)),
      p99: Math.max(...results.map((r) => r.p99)),
      non2xx: sum((r) => r.non2xx),
    };
  }
  const oneShard = [];
  const twoShards = [];
  for (let i = 0; i < TENANTS; i++) {
    oneShard.push(await adjuster("SHARD_0"));
    twoShards.push(await adjuster(i % 2 === 0 ? "SHARD_0" : "SHARD_1"));
  }
  await together([...oneShard, ...twoShards].map((t) => ({ ...t, duration: 2 }))); // warm-up
  // One, two, one again: the repeat shows how much the shared machine drifted during the run.
  const first = await together(oneShard);
  const spread = await together(twoShards);
  const again = await together(oneShard);
  report(
    `shards: adjustments of ${TENANTS} tenants (2 connections each, p50/p99 = worst tenant) on one shard vs two`,
    { "one shard (SHARD_0)": first, "two shards (4 + 4)": spread, "one shard again": again },
    first,
  );
} finally {
  api.stop();
}
