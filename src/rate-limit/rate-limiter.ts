import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";
import { type Decision, decide, type WindowRule } from "./sliding-window";

/**
 * One object per limited subject (a tenant, a login email, a client IP): the sliding-window log of
 * its admitted requests. The log lives in the object's SQLite storage, so an eviction or restart
 * does not hand out a fresh budget; an in-memory copy spares a read per call. Each method is
 * synchronous, so concurrent calls to one object cannot interleave: admission is atomic.
 */
export class RateLimiter extends DurableObject<Bindings> {
  readonly #log: number[];

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS hits (at INTEGER NOT NULL)");
    this.#log = ctx.storage.sql
      .exec<{ at: number }>("SELECT at FROM hits ORDER BY at")
      .toArray()
      .map((row) => row.at);
  }

  /** Admits (and logs) or refuses one request against `rule`; the budget is passed on every call, so a plan change applies at once. */
  hit(rule: WindowRule): Decision & { at: number } {
    const now = Date.now();
    const { decision, expired } = decide(this.#log, now, rule);
    if (expired > 0) {
      this.#log.splice(0, expired);
      this.ctx.storage.sql.exec("DELETE FROM hits WHERE at <= ?", now - rule.windowMs);
    }
    if (decision.allowed) {
      this.#log.push(now);
      this.ctx.storage.sql.exec("INSERT INTO hits (at) VALUES (?)", now);
    }
    return { ...decision, at: now };
  }

  /** Gives back one admitted request (logged at `at`): it turned out not to count, e.g. a successful login. */
  forget(at: number): void {
    const index = this.#log.indexOf(at);
    if (index === -1) return;
    this.#log.splice(index, 1);
    this.ctx.storage.sql.exec(
      "DELETE FROM hits WHERE rowid = (SELECT rowid FROM hits WHERE at = ? LIMIT 1)",
      at,
    );
  }

  /** Forgets every logged request, e.g. a login email's failures after a successful login. */
  clear(): void {
    this.#log.length = 0;
    this.ctx.storage.sql.exec("DELETE FROM hits");
  }
}
