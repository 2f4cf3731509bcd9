import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";
import { type Decision, decide, type WindowRule } from "./sliding-window";

/**
 * One object per limited subject (a tenant, a login email, a client IP): the sliding-window log of
 * its admitted requests. The log lives in the object's SQLite storage, so an eviction or restart
 * does not hand out a fresh budget; an in-memory copy spares a read per call. `hit` runs synchronously
 * to the end (and the others await only storage, which holds the input gate), so concurrent calls to one
 * object cannot interleave: admission is atomic.
 */
export class RateLimiter extends DurableObject<Bindings> {
  readonly #log: number[] = [];
  #hasTable = false;
  /** When the last admitted entry expires; an alarm that fires earlier is stale (a newer one is set). */
  #idleAt = 0;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.#hasTable =
      ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hits'").toArray()
        .length > 0;
    if (this.#hasTable) {
      for (const row of ctx.storage.sql.exec<{ at: number }>("SELECT at FROM hits ORDER BY at"))
        this.#log.push(row.at);
    }
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
      if (!this.#hasTable) this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS hits (at INTEGER NOT NULL)");
      this.#hasTable = true;
      this.#log.push(now);
      this.ctx.storage.sql.exec("INSERT INTO hits (at) VALUES (?)", now);
      // Once a whole window passes with no admission, every entry has expired: the alarm then
      // deletes the object's storage, so idle subjects (e.g. random login emails) leave nothing behind.
      this.#idleAt = now + rule.windowMs;
      void this.ctx.storage.setAlarm(this.#idleAt);
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
  async clear(): Promise<void> {
    this.#log.length = 0;
    this.#hasTable = false;
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    if (Date.now() < this.#idleAt) return;
    await this.clear();
  }
}
