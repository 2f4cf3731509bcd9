import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decide } from "../src/rate-limit/sliding-window";

const rule = { limit: 3, windowMs: 60_000 };
const T = 1_800_000_000_000;

/** Replays requests at the given times through `decide`, keeping the log as the object does. */
function replay(times: number[], limit = rule.limit) {
  const log: number[] = [];
  return times.map((now) => {
    const decision = decide(log, now, { ...rule, limit });
    if (decision.allowed) log.push(now);
    return decision;
  });
}

describe("sliding-window decision (pure, explicit clock)", () => {
  it("admits exactly the limit, then refuses with the time until the oldest request leaves", () => {
    const [first, second, third, fourth] = replay([T, T + 1_000, T + 2_000, T + 30_000]);
    expect([first?.remaining, second?.remaining, third?.remaining]).toEqual([2, 1, 0]);
    expect([first, second, third].every((d) => d?.allowed)).toBe(true);
    expect(fourth).toMatchObject({ allowed: false, remaining: 0, resetAt: T + 60_000, retryAfter: 30 });
  });

  it("still refuses 1 ms before the oldest request's window ends and admits exactly at its end", () => {
    const decisions = replay([T, T + 1_000, T + 2_000, T + 59_999, T + 60_000]);
    expect(decisions[3]).toMatchObject({ allowed: false, retryAfter: 1, resetAt: T + 60_000 });
    expect(decisions[4]).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("slides: each old request frees its own slot, never the whole budget at once", () => {
    const decisions = replay([T, T + 20_000, T + 40_000, T + 60_000, T + 60_001, T + 80_000, T + 80_001]);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, false, true, false]);
    // The refusal at T+60001 waits for the request of T+20000.
    expect(decisions[4]).toMatchObject({ resetAt: T + 80_000, retryAfter: 20 });
  });

  it("never admits more than the limit in any rolling window, whatever the arrival pattern", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 240_000 }), { maxLength: 60 }), (offsets) => {
        const times = offsets.map((offset) => T + offset).sort((a, b) => a - b);
        const decisions = replay(times);
        const admitted = times.filter((_, i) => decisions[i]?.allowed);
        for (const start of admitted) {
          const inWindow = admitted.filter((t) => t >= start && t < start + rule.windowMs);
          expect(inWindow.length).toBeLessThanOrEqual(rule.limit);
        }
        // Exactness the other way too: a refusal happens only when the window is full.
        times.forEach((now, i) => {
          if (decisions[i]?.allowed) return;
          expect(admitted.filter((t) => t > now - rule.windowMs && t <= now).length).toBe(rule.limit);
        });
      }),
    );
  });

  it("after a lowered limit, waits until enough requests leave for the count to drop below it", () => {
    const log = [T, T + 10_000, T + 20_000, T + 30_000, T + 40_000];
    const decision = decide(log, T + 45_000, { limit: 2, windowMs: 60_000 });
    // Four must leave (5 -> 1 < 2): the fourth, logged at T+30000, frees the slot at T+90000.
    expect(decision).toMatchObject({ allowed: false, remaining: 0, resetAt: T + 90_000, retryAfter: 45 });
  });

  it("ignores entries that left the window and, with none left, resets one window after now", () => {
    const decision = decide([T, T + 1], T + 60_001, rule);
    expect(decision).toMatchObject({ allowed: true, remaining: 2, resetAt: T + 120_001, retryAfter: 0 });
  });
});
