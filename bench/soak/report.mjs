// The soak's figures from its history: requests, per-endpoint latency, 5xx by cause, faults by kind.

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** `d1-batch=2, limiter=1` -> [["d1-batch", 2], ["limiter", 1]]. */
export const firedFaults = (header) =>
  (header ?? "")
    .split(",")
    .map((part) => part.trim().split("="))
    .filter(([kind]) => kind)
    .map(([kind, count]) => [kind, Number(count ?? 1)]);

export function figures(history, extraFaults) {
  const byEndpoint = new Map();
  const serverErrors = new Map();
  const faults = new Map(Object.entries(extraFaults));
  let networkErrors = 0;
  for (const entry of history) {
    if (entry.status === 0) {
      networkErrors++;
      continue;
    }
    if (!byEndpoint.has(entry.endpoint)) byEndpoint.set(entry.endpoint, []);
    byEndpoint.get(entry.endpoint).push(entry.receivedAt - entry.sentAt);
    const fired = firedFaults(entry.headers?.["x-fault-injected"]);
    for (const [kind, count] of fired) faults.set(kind, (faults.get(kind) ?? 0) + count);
    if (entry.status >= 500) {
      const cause = fired.length ? `injected ${fired.map(([kind]) => kind).join("+")}` : "not injected";
      serverErrors.set(cause, (serverErrors.get(cause) ?? 0) + 1);
    }
  }
  const endpoints = [...byEndpoint]
    .map(([endpoint, latencies]) => {
      const sorted = latencies.sort((a, b) => a - b);
      return { endpoint, count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    })
    .sort((a, b) => b.count - a.count);
  return {
    requests: history.length,
    statuses: countBy(history, (e) => String(e.status)),
    endpoints,
    serverErrors: Object.fromEntries(serverErrors),
    networkErrors,
    faults: Object.fromEntries(faults),
    faultCount: [...faults.values()].reduce((a, b) => a + b, 0),
  };
}

function countBy(items, key) {
  const counts = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

export function markdown({
  figures: f,
  admissions,
  deliveries,
  checks,
  settings,
  violations,
  eventsLost,
  duplicates,
}) {
  const lines = [
    `Run: ${settings}`,
    "",
    `Requests (attempts): ${f.requests}; by status: ${Object.entries(f.statuses)
      .sort()
      .map(([s, n]) => `${s === "0" ? "no response" : s}: ${n}`)
      .join(", ")}`,
    `5xx by cause: ${
      Object.entries(f.serverErrors)
        .map(([c, n]) => `${c}: ${n}`)
        .join(", ") || "none"
    }; no response (restart): ${f.networkErrors}`,
    `Faults injected by kind: ${
      Object.entries(f.faults)
        .map(([k, n]) => `${k}: ${n}`)
        .join(", ") || "none"
    }`,
    `Plan admissions: ${admissions}`,
    `Webhooks: ${deliveries}`,
    `Invariant violations: ${violations}; events lost: ${eventsLost}; duplicates after de-duplication: ${duplicates}`,
    "",
    "| check after | requests so far | violations | events not delivered (in flight; at the end: lost) | duplicates |",
    "|---|---|---|---|---|",
    ...checks.map((c) => `| ${c.name} | ${c.after} | ${c.violations} | ${c.eventsLost} | ${c.duplicates} |`),
    "",
    "| endpoint | requests | p50 ms | p99 ms |",
    "|---|---|---|---|",
    ...f.endpoints.map((e) => `| ${e.endpoint} | ${e.count} | ${e.p50} | ${e.p99} |`),
  ];
  return lines.join("\n");
}
