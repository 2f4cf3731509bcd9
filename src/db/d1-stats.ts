import { RoundTrips } from "../http/round-trips";
import { answeringFencedWrites } from "./moves/fence";

/**
 * D1 calls and rows touched by one request, and the request's sequential round trips (D1 and Durable
 * Object calls on its critical path), for the X-D1-Stats debug header and benchmarks.
 */
export class D1Stats {
  readonly roundTrips = new RoundTrips();
  calls = 0;
  rowsRead = 0;
  rowsWritten = 0;

  add(meta: Partial<D1Meta> | undefined): void {
    this.rowsRead += meta?.rows_read ?? 0;
    this.rowsWritten += meta?.rows_written ?? 0;
  }

  /** Adds the work of calls that ran alongside this request's chain, from its start: one round trip at most. */
  includeAlongside(other: D1Stats): void {
    this.calls += other.calls;
    this.rowsRead += other.rowsRead;
    this.rowsWritten += other.rowsWritten;
    this.roundTrips.hops = Math.max(this.roundTrips.hops, other.roundTrips.hops);
  }

  toHeader(): string {
    return `calls=${this.calls}; rows-read=${this.rowsRead}; rows-written=${this.rowsWritten}; hops=${this.roundTrips.hops}`;
  }
}

const realStatements = new WeakMap<object, D1PreparedStatement>();

function instrumentStatement(statement: D1PreparedStatement, stats: D1Stats): D1PreparedStatement {
  const wrapped = new Proxy(statement, {
    get(target, prop) {
      switch (prop) {
        case "bind":
          return (...values: unknown[]) => instrumentStatement(target.bind(...values), stats);
        case "all":
        case "run":
          return async () => {
            stats.calls++;
            const result = await stats.roundTrips.track(answeringFencedWrites(target[prop]()));
            stats.add(result.meta);
            return result;
          };
        case "first":
        case "raw":
          // D1 returns no meta for these: only the round trip is counted.
          return (...args: never[]) => {
            stats.calls++;
            return stats.roundTrips.track(
              answeringFencedWrites((target[prop] as (...a: never[]) => Promise<unknown>)(...args)),
            );
          };
        default: {
          const value = Reflect.get(target, prop, target);
          return typeof value === "function" ? value.bind(target) : value;
        }
      }
    },
  });
  realStatements.set(wrapped, statement);
  return wrapped;
}

/**
 * Wraps the D1 binding so every call made through it is counted in `stats`, and a write refused by a moving
 * tenant's fence fails with its answer (src/db/moves/fence.ts), whichever layer made it.
 */
export function instrumentD1(d1: D1Database, stats: D1Stats): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") {
        return (query: string) => instrumentStatement(target.prepare(query), stats);
      }
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          stats.calls++;
          const results = await stats.roundTrips.track(
            answeringFencedWrites(target.batch(statements.map((s) => realStatements.get(s) ?? s))),
          );
          for (const result of results) stats.add(result.meta);
          return results;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
