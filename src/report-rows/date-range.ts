import { z } from "@hono/zod-openapi";

/** The longest range a dated report accepts, counting both end days. */
export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const MESSAGE = "must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone";

/**
 * A range bound as an instant. A bare date means the whole day in UTC: `from` starts at its
 * midnight, `to` includes it to its end. Stored timestamps are ISO strings, so bounds are too.
 */
function bound(edge: "from" | "to") {
  return z
    .string()
    .transform((value, ctx) => {
      const isDate = DATE.test(value);
      const ms = isDate
        ? Date.parse(`${value}T00:00:00.000Z`)
        : DATE_TIME.test(value)
          ? Date.parse(value)
          : NaN;
      // Date.parse rolls 2026-02-30 over to March; a real date survives the round trip.
      if (Number.isNaN(ms) || (isDate && new Date(ms).toISOString().slice(0, 10) !== value)) {
        ctx.addIssue({ code: "custom", message: MESSAGE });
        return z.NEVER;
      }
      // `to` becomes an exclusive bound: the next midnight for a date, the next millisecond for an instant.
      return edge === "from" ? ms : ms + (isDate ? DAY_MS : 1);
    })
    .openapi({
      param: { name: edge, in: "query", required: true },
      type: "string",
      // Either form, as the transform reads them (the calendar check stays the API's: 2026-02-30 fits the pattern).
      pattern: `${DATE.source}|${DATE_TIME.source}`,
      description:
        edge === "from"
          ? "Start of the range: a UTC date (from its midnight) or an ISO 8601 date-time."
          : "End of the range, inclusive: a UTC date (to its end) or an ISO 8601 date-time.",
      example: edge === "from" ? "2026-11-01" : "2026-11-30",
    });
}

export const dateRangeQuery = z.object({ from: bound("from"), to: bound("to") });

/** Refinement for a query holding a date range: `to` not before `from`, at most MAX_RANGE_DAYS long. */
export function checkRange(query: { from: number; to: number }, ctx: z.RefinementCtx) {
  if (query.to <= query.from) {
    ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
  } else if (query.to - query.from > MAX_RANGE_DAYS * DAY_MS) {
    ctx.addIssue({
      code: "custom",
      path: ["to"],
      message: `the range must be at most ${MAX_RANGE_DAYS} days`,
    });
  }
}

/** The range as the half-open ISO interval [from, to) that stored timestamps are compared with. */
export function isoRange(query: { from: number; to: number }) {
  return { from: new Date(query.from).toISOString(), to: new Date(query.to).toISOString() };
}
