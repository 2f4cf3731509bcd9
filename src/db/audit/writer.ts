import { is, SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { PlatformDb } from "../client";
import { insertSelect } from "../insert-select";
import * as platformSchema from "../schema/platform";
import type { AuditAction } from "./catalogue";
import { type AuditHandle, auditTableOf } from "./store";

// The one writer of audit entries (docs/decisions/audit-log.md). An entry is a statement of the change's own batch,
// so it exists exactly when its change committed; guarded by `onlyIf` when the change itself is guarded. It takes
// the tenant's next `seq` inside its insert, and is sealed into the hash chain after the commit (chain.ts).

/** Who acts, through which grantor chain, from where: one per request (src/pipeline/audit-actor.ts). */
export interface AuditActor {
  type: "user" | "api_key" | "platform" | "anonymous";
  id: string | null;
  /** The credential, then whatever it acts under: a key's makers (nearest first), then its member. */
  chain: { type: string; id: string }[];
  /** The merchant the actor acts for (null: the whole tenant). */
  merchantId: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  /** The chains this request wrote to: sealed once the response is sent (src/pipeline/seal-audit-chain.ts). */
  readonly written: Set<AuditHandle | PlatformDb>;
}

export interface AuditChange {
  action: AuditAction;
  target: { type: string; id: string | null };
  /** The merchant the target belongs to, when it belongs to one (else the actor's). */
  merchantId?: string | null;
  /**
   * The target before and after the change; secret fields are redacted here (`redacted`). `before` may be SQL
   * yielding JSON, read by the entry's own insert: placed before the change in the batch, it is the row as the change
   * found it, without a read of its own (it names its fields, so it names no secret).
   */
  before?: object | null | SQL;
  after?: object | null;
}

// Fields never stored in an entry: key material, tokens, password hashes and salts, webhook and carrier secrets.
const SECRET_FIELD = /secret|password|token|hash|salt|signature|credential|^key$|apikey|privatekey/i;

/** A value with every secret field (by name, at any depth) replaced by "[redacted]". */
export function redacted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redacted);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([field, v]) => [field, SECRET_FIELD.test(field) ? "[redacted]" : redacted(v)]),
  );
}

const json = (value: object | null | undefined) => (value ? JSON.stringify(redacted(value)) : null);

/** Every column but the tenant and its sequence number, which each insert takes its own way. */
function entryColumns(by: AuditActor, change: AuditChange, now: string) {
  return {
    id: uuidv7(),
    action: change.action,
    actorType: by.type,
    actorId: by.id,
    actorChain: JSON.stringify(by.chain),
    merchantId: change.merchantId ?? by.merchantId,
    targetType: change.target.type,
    targetId: change.target.id,
    before: is(change.before, SQL) ? change.before : json(change.before),
    after: json(change.after),
    ip: by.ip,
    userAgent: by.userAgent,
    requestId: by.requestId,
    createdAt: now,
    prevHash: null,
    hash: null,
  };
}

/** The tenant's next audit sequence number on this database, read inside the inserting statement. */
const nextSeq = (tenantId: SQL | string) =>
  sql`(select coalesce(max(a.seq), 0) + 1 from audit_events a where a.tenant_id = ${tenantId})`;

/**
 * The audit entry of one change, as a statement of the change's batch (`runBatch(handle, { ..., audit })`).
 * `onlyIf` (evaluated in the batch, after the change) writes it only when the change happened, such as
 * `changes() = 1` right after a guarded update.
 */
export function auditRow(
  handle: AuditHandle,
  by: AuditActor,
  change: AuditChange,
  options: { onlyIf?: SQL } = {},
) {
  by.written.add(handle);
  return insertSelect(
    auditTableOf(handle),
    {
      ...entryColumns(by, change, new Date().toISOString()),
      tenantId: handle.tenantId,
      seq: nextSeq(handle.tenantId),
    },
    sql`where ${options.onlyIf ?? sql`1`}`,
  );
}

/** A random (version 4) UUID made by the statement itself: one per row of an insert-select. */
const randomUuid = sql`lower(printf('%s-%s-4%s-%s%s-%s', hex(randomblob(4)), hex(randomblob(2)),
  substr(hex(randomblob(2)), 2), substr('89ab', 1 + abs(random()) % 4, 1), substr(hex(randomblob(2)), 2),
  hex(randomblob(6))))`;

/**
 * One entry in every tenant `userId` is a member of (a sign-in is the person's, not one tenant's), each in its
 * tenant's platform chain; none for someone who is nobody's member.
 */
export function auditRowsForMember(db: PlatformDb, userId: string, by: AuditActor, change: AuditChange) {
  by.written.add(db);
  const m = platformSchema.memberships;
  return insertSelect(
    platformSchema.auditEvents,
    {
      ...entryColumns(by, change, new Date().toISOString()),
      id: randomUuid,
      tenantId: sql`${m.tenantId}`,
      seq: nextSeq(sql`${m.tenantId}`),
      merchantId: sql`${m.merchantId}`,
    },
    sql`from ${m} where ${m.userId} = ${userId}`,
  );
}
