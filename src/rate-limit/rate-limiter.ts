import { DurableObject } from "cloudflare:workers";
import {
  acquire,
  emptyLedger,
  forget,
  handBack,
  hit,
  idleAt,
  type LeaseAsk,
  type LeaseReport,
  type Ledger,
  type LedgerChanges,
} from "./ledger";
import type { Decision, WindowRule } from "./sliding-window";

/** The answer to `acquire`: the lease (no slots when nothing could be granted) and where the budget stands after it. */
export interface LeaseGrant {
  id: string;
  slots: number;
  next: Decision;
}

/**
 * One object per limited subject (a tenant, a login email, a client IP): its ledger (`ledger.ts`) of
 * recorded uses and outstanding leases, kept in the object's SQLite storage so an eviction or restart
 * does not hand out a fresh budget, with an in-memory copy that spares a read per call. Every method runs
 * synchronously to the end (storage calls are synchronous; `clear` awaits only storage, which holds the
 * input gate), so concurrent calls to one object cannot interleave: every decision is atomic.
 */
// It reads no binding, so it does not name the bindings (src/env.ts names it).
export class RateLimiter extends DurableObject {
  #ledger: Ledger = emptyLedger;
  #hasTables = false;
  /** When the last entry leaves the window; an alarm that fires earlier is stale (a newer one is set). */
  #idleAt = 0;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    const tables = ctx.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('hits', 'leases')",
      )
      .toArray();
    this.#hasTables = tables.length === 2;
    const hits = tables.some((t) => t.name === "hits")
      ? ctx.storage.sql
          .exec<{ at: number }>("SELECT at FROM hits ORDER BY at")
          .toArray()
          .map((row) => row.at)
      : [];
    const leases = this.#hasTables
      ? ctx.storage.sql
          .exec<{ id: string; granted_at: number; expires_at: number; slots: number }>(
            "SELECT id, granted_at, expires_at, slots FROM leases ORDER BY expires_at",
          )
          .toArray()
          .map((row) => ({
            id: row.id,
            grantedAt: row.granted_at,
            expiresAt: row.expires_at,
            slots: row.slots,
          }))
      : [];
    this.#ledger = { hits, leases };
  }

  /** Grants a lease for a tenant's requests (after settling the caller's reports); the rule comes with every call, so a plan change applies at once. */
  acquire(rule: WindowRule, ask: LeaseAsk, reports: LeaseReport[]): LeaseGrant {
    const id = crypto.randomUUID();
    const result = acquire(this.#ledger, Date.now(), rule, ask, reports, id);
    this.#store(result.ledger, result.changes, rule.windowMs);
    return { id, slots: result.granted, next: result.next };
  }

  /** Takes back the leases an isolate will no longer use (their unused slots free at once). */
  handBack(windowMs: number, reports: LeaseReport[]): void {
    const result = handBack(this.#ledger, Date.now(), windowMs, reports);
    this.#store(result.ledger, result.changes, windowMs);
  }

  /** Admits (and records) or refuses one request against `rule`, decided here: a login attempt. */
  hit(rule: WindowRule): Decision & { at: number } {
    const now = Date.now();
    const result = hit(this.#ledger, now, rule);
    this.#store(result.ledger, result.changes, rule.windowMs);
    return { ...result.decision, at: now };
  }

  /** Gives back one admitted request (recorded at `at`): it turned out not to count, e.g. a successful login. */
  forget(at: number): void {
    const ledger = forget(this.#ledger, at);
    if (ledger === this.#ledger) return;
    this.#ledger = ledger;
    this.ctx.storage.sql.exec(
      "DELETE FROM hits WHERE rowid = (SELECT rowid FROM hits WHERE at = ? LIMIT 1)",
      at,
    );
  }

  /** Forgets everything, e.g. a login email's failures after a successful login. */
  async clear(): Promise<void> {
    this.#ledger = emptyLedger;
    this.#hasTables = false;
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    if (Date.now() < this.#idleAt) return;
    await this.clear();
  }

  #store(ledger: Ledger, changes: LedgerChanges, windowMs: number): void {
    this.#ledger = ledger;
    const sql = this.ctx.storage.sql;
    const writes = changes.addedHits.length > 0 || changes.addedLease !== undefined;
    if (!this.#hasTables) {
      if (!writes) return;
      sql.exec("CREATE TABLE IF NOT EXISTS hits (at INTEGER NOT NULL)");
      sql.exec(
        "CREATE TABLE IF NOT EXISTS leases (id TEXT PRIMARY KEY, granted_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, slots INTEGER NOT NULL)",
      );
      this.#hasTables = true;
    }
    sql.exec("DELETE FROM hits WHERE at <= ?", changes.cutoff);
    sql.exec("DELETE FROM leases WHERE expires_at <= ?", changes.cutoff);
    for (const id of changes.settledLeases) sql.exec("DELETE FROM leases WHERE id = ?", id);
    for (const at of changes.addedHits) sql.exec("INSERT INTO hits (at) VALUES (?)", at);
    const lease = changes.addedLease;
    if (lease) {
      sql.exec(
        "INSERT INTO leases (id, granted_at, expires_at, slots) VALUES (?, ?, ?, ?)",
        lease.id,
        lease.grantedAt,
        lease.expiresAt,
        lease.slots,
      );
    }
    // Once every entry has left the window, the alarm deletes the object's storage, so idle subjects
    // (e.g. random login emails) leave nothing behind.
    if (writes) {
      this.#idleAt = idleAt(ledger, windowMs);
      void this.ctx.storage.setAlarm(this.#idleAt);
    }
  }
}
