import { describe, expect, it } from "vitest";
import { nextStep } from "../src/webhook-delivery/next-step";
import { MAX_ATTEMPTS } from "../src/webhook-delivery/retry-schedule";

const now = new Date("2026-11-23T12:00:00.000Z");
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
const noJitter = () => 0;
const attempt = (number: number, failingSince: string | null = null) => ({ number, failingSince, now });
const answered = (statusCode: number | null) => ({ sent: true as const, statusCode });

describe("what follows a delivery attempt", () => {
  it("ends the delivery on any 2xx, and ends the subscription's failing streak if it had one", () => {
    for (const status of [200, 201, 202, 204, 299]) {
      expect(nextStep(attempt(1), answered(status))).toEqual({
        status: "succeeded",
        retryAfterSeconds: null,
        subscription: null,
      });
    }
    expect(nextStep(attempt(3, hoursAgo(2)), answered(200)).subscription).toEqual({ failingSince: null });
  });

  it("retries every other answer and no answer on the schedule, marking when failures started", () => {
    for (const outcome of [answered(500), answered(404), answered(302), answered(429), answered(null)]) {
      expect(nextStep(attempt(1), outcome, noJitter)).toEqual({
        status: "pending",
        retryAfterSeconds: 5,
        subscription: { failingSince: now.toISOString() },
      });
    }
    expect(nextStep(attempt(2, hoursAgo(1)), answered(500), noJitter)).toEqual({
      status: "pending",
      retryAfterSeconds: 300,
      subscription: { failingSince: hoursAgo(1) },
    });
    expect(nextStep(attempt(7, hoursAgo(20)), answered(503), noJitter).retryAfterSeconds).toBe(36_000);
  });

  it("keeps the delivery as failed once the schedule runs out", () => {
    expect(nextStep(attempt(MAX_ATTEMPTS, hoursAgo(28)), answered(500), noJitter)).toEqual({
      status: "failed",
      retryAfterSeconds: null,
      subscription: { failingSince: hoursAgo(28) },
    });
  });

  it("disables the subscription on 410 Gone, at any attempt", () => {
    for (const number of [1, 4, MAX_ATTEMPTS]) {
      expect(nextStep(attempt(number), answered(410))).toEqual({
        status: "failed",
        retryAfterSeconds: null,
        subscription: { active: false, disabledReason: "The receiver answered 410 Gone" },
      });
    }
  });

  it("disables the subscription after 5 days of failures, not a moment before", () => {
    const disabled = { active: false, disabledReason: "Every delivery failed for 5 days" };
    expect(nextStep(attempt(2, hoursAgo(120)), answered(500)).subscription).toEqual(disabled);
    expect(nextStep(attempt(2, hoursAgo(119.99)), answered(500)).status).toBe("pending");
    // A success after a long streak still succeeds.
    expect(nextStep(attempt(2, hoursAgo(200)), answered(204)).status).toBe("succeeded");
  });

  it("fails an attempt that was never sent without retrying or touching the subscription", () => {
    expect(nextStep(attempt(1, hoursAgo(3)), { sent: false })).toEqual({
      status: "failed",
      retryAfterSeconds: null,
      subscription: null,
    });
  });

  it("adds up to 10% jitter to the delay", () => {
    expect(nextStep(attempt(1), answered(500), () => 1).retryAfterSeconds).toBe(6);
    expect(nextStep(attempt(3), answered(500), () => 0.5).retryAfterSeconds).toBe(1890);
  });
});
