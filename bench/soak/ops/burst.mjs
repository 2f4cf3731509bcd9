// A greedy Starter tenant's burst: more reads at once than its plan admits in a minute, so the limiter must
// refuse (429) and the client back off as told (Retry-After). The checker then verifies from the history that
// no 60-second window admitted more than the plan allows.
import { pick } from "../random.mjs";

/** Reads sent at once: above the Starter plan's 60 per minute on its own. */
export const BURST = 70;

export const burst = {
  name: "burst",
  weight: 6,
  applies: (t) => t.greedy,
  async run(t) {
    const reads = Array.from({ length: BURST }, () =>
      t
        .track("burst", () => t.client.products.get(pick(t.products)))
        .then(
          () => "ok",
          (error) => error.code ?? "error",
        ),
    );
    const outcomes = await Promise.all(reads);
    const refused = outcomes.filter((o) => o === "RATE_LIMITED").length;
    if (refused > 0) {
      // Still refused after the client's retries: the plan held; the operation reports it.
      const error = new Error(`${refused} of ${BURST} reads still refused after retries`);
      error.code = "RATE_LIMITED";
      throw error;
    }
  },
};
