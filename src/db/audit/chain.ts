import { and, asc, desc, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { sha256Hex } from "../../crypto/hashing";
import { runBatch } from "../batch";
import type { PlatformDb } from "../client";
import { type AuditHandle, auditTableOf, databaseOf } from "./store";

// The hash chain of a tenant's audit entries on one database (docs/decisions/audit-log.md). Entries are written
// unchained in their change's batch with the tenant's next `seq` (commit order, gapless: a database has one writer),
// and sealed here afterwards in seq order: hash = SHA-256(previous hash, the entry's stored columns). A seal is a
// function of the stored rows alone, so two sealers racing compute the same hashes and the guarded update
// (`hash is null`) lets the first win and the second change nothing: the chain cannot fork.

/** The hash the first entry of a chain follows. */
export const GENESIS = "0".repeat(64);

/** Entries sealed per round trip (each is one guarded update of a batch). */
const SEAL_BATCH = 50;
/** Entries read per round trip while verifying. */
const VERIFY_PAGE = 500;

/** The columns an entry's hash covers, as stored (JSON columns as their text), in a fixed order. */
const hashedColumns = (t: ReturnType<typeof auditTableOf>) => ({
  id: t.id,
  seq: t.seq,
  tenantId: t.tenantId,
  action: t.action,
  actorType: t.actorType,
  actorId: t.actorId,
  actorChain: sql<string>`${t.actorChain}`.as("actor_chain"),
  merchantId: t.merchantId,
  targetType: t.targetType,
  targetId: t.targetId,
  before: sql<string | null>`${t.before}`.as("before"),
  after: sql<string | null>`${t.after}`.as("after"),
  ip: t.ip,
  userAgent: t.userAgent,
  requestId: t.requestId,
  createdAt: t.createdAt,
});

type StoredEntry = { [K in keyof ReturnType<typeof hashedColumns>]: unknown } & { seq: number };

/** An entry's hash after `previous`. */
export const entryHash = (previous: string, entry: StoredEntry) => {
  const { seq, ...rest } = entry;
  return sha256Hex(`${previous}\n${JSON.stringify([seq, ...Object.values(rest)])}`);
};

/** Seals the unsealed entries of one tenant's chain, in seq order. */
async function sealTenant(
  db: ReturnType<typeof databaseOf>,
  t: ReturnType<typeof auditTableOf>,
  tenantId: string,
) {
  for (;;) {
    const { last, open } = await runBatch(db, {
      last: db
        .select({ seq: t.seq, hash: t.hash })
        .from(t)
        .where(and(eq(t.tenantId, tenantId), isNotNull(t.hash)))
        .orderBy(desc(t.seq))
        .limit(1),
      open: db
        .select(hashedColumns(t))
        .from(t)
        .where(and(eq(t.tenantId, tenantId), isNull(t.hash)))
        .orderBy(asc(t.seq))
        .limit(SEAL_BATCH),
    });
    let previous = last[0]?.hash ?? GENESIS;
    let seq = last[0]?.seq ?? 0;
    const updates = [];
    for (const entry of open) {
      // Only the next entry joins the chain: a gap is an entry still being written elsewhere (it cannot be here,
      // seq is taken in one database), so the seal stops rather than chain past it.
      if (entry.seq !== seq + 1) break;
      const hash = await entryHash(previous, entry as StoredEntry);
      updates.push(
        db
          .update(t)
          .set({ prevHash: previous, hash })
          .where(and(eq(t.tenantId, tenantId), eq(t.seq, entry.seq), isNull(t.hash))),
      );
      previous = hash;
      seq = entry.seq;
    }
    if (updates.length > 0) await runBatch(db, { updates });
    if (open.length < SEAL_BATCH || updates.length < open.length) return;
  }
}

/**
 * Seals what a request wrote: one tenant's chain (a tenant's or platform handle), or on the platform database
 * every tenant with an unsealed entry (a sign-in writes one in each tenant of the person).
 */
export async function sealChain(handle: AuditHandle | PlatformDb): Promise<void> {
  const t = auditTableOf(handle);
  const db = databaseOf(handle);
  if ("tenantId" in handle) return sealTenant(db, t, handle.tenantId);
  const tenants = await db.selectDistinct({ tenantId: t.tenantId }).from(t).where(isNull(t.hash));
  for (const { tenantId } of tenants) await sealTenant(db, t, tenantId);
}

/** What verifying a chain found: its length and head, and the first entry that breaks it (none: it holds). */
export interface ChainCheck {
  entries: number;
  head: { seq: number; hash: string } | null;
  broken: { id: string | null; seq: number; reason: string } | null;
}

/**
 * Reads a tenant's chain from its first entry and checks each link: seq follows seq (a deleted entry leaves a gap),
 * each entry names the hash before it, and its hash is that of its stored columns (a changed entry fails here).
 * Unsealed entries are sealed first.
 */
export async function verifyChain(handle: AuditHandle): Promise<ChainCheck> {
  await sealChain(handle);
  const t = auditTableOf(handle);
  const db = databaseOf(handle);
  let previous = GENESIS;
  let seq = 0;
  for (;;) {
    const page = await db
      .select({ ...hashedColumns(t), prevHash: t.prevHash, hash: t.hash })
      .from(t)
      .where(and(eq(t.tenantId, handle.tenantId), gt(t.seq, seq)))
      .orderBy(asc(t.seq))
      .limit(VERIFY_PAGE);
    for (const { prevHash, hash, ...entry } of page) {
      const at = { id: entry.id, seq: entry.seq };
      // Written since the seal above: the chain is checked up to it.
      if (hash === null && entry.seq === seq + 1) break;
      if (entry.seq !== seq + 1)
        return { entries: seq, head: null, broken: { id: null, seq: seq + 1, reason: "entry missing" } };
      if (prevHash !== previous)
        return { entries: seq, head: null, broken: { ...at, reason: "previous hash differs" } };
      if (hash !== (await entryHash(previous, entry as StoredEntry)))
        return { entries: seq, head: null, broken: { ...at, reason: "entry changed since it was sealed" } };
      previous = hash;
      seq = entry.seq;
    }
    if (page.length < VERIFY_PAGE || page.at(-1)?.seq !== seq)
      return { entries: seq, head: seq ? { seq, hash: previous } : null, broken: null };
  }
}
