import { and, eq, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import { newestFirst } from "../pages";
import { between } from "../time-range";
import { type AuditHandle, type AuditStore, auditTableOf, databaseOf, storeOf } from "./store";

// A tenant's audit entries are on two databases (store.ts); a page reads both and merges them newest first, keyed
// by (createdAt, id), so a cursor is one position in that order whatever database the entries came from.

export interface AuditFilters {
  /** Action names and `<target>.*` families. */
  actions?: readonly string[];
  actorId?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
  /** A merchant's credential reads its merchant's entries only. */
  merchantId?: string;
}

/** Where a page starts: after this entry in newest-first order. */
export interface AuditPosition {
  createdAt: string;
  id: string;
}

function conditions(
  t: ReturnType<typeof auditTableOf>,
  tenantId: string,
  filters: AuditFilters,
  after?: AuditPosition,
) {
  const names = filters.actions?.filter((a) => !a.endsWith(".*")) ?? [];
  const families = filters.actions?.filter((a) => a.endsWith(".*")) ?? [];
  const actionMatch: SQL[] = [
    ...(names.length ? [inArray(t.action, names)] : []),
    // Not LIKE: `_` in a name such as api_key would be its wildcard.
    ...families.map((family) => sql`substr(${t.action}, 1, ${family.length - 1}) = ${family.slice(0, -1)}`),
  ];
  return and(
    eq(t.tenantId, tenantId),
    ...(actionMatch.length ? [or(...actionMatch)] : []),
    ...(filters.actorId ? [eq(t.actorId, filters.actorId)] : []),
    ...(filters.targetType ? [eq(t.targetType, filters.targetType)] : []),
    ...(filters.targetId ? [eq(t.targetId, filters.targetId)] : []),
    ...(filters.merchantId ? [eq(t.merchantId, filters.merchantId)] : []),
    ...between(t.createdAt, filters.from, filters.to),
    ...(after
      ? [or(lt(t.createdAt, after.createdAt), and(eq(t.createdAt, after.createdAt), lt(t.id, after.id)))]
      : []),
  );
}

const readStore = (handle: AuditHandle, filters: AuditFilters, limit: number, after?: AuditPosition) => {
  const t = auditTableOf(handle);
  return databaseOf(handle)
    .select()
    .from(t)
    .where(conditions(t, handle.tenantId, filters, after))
    .orderBy(...newestFirst(t))
    .limit(limit)
    .then((rows) => rows.map((row) => ({ ...row, store: storeOf(handle) as AuditStore })));
};

export type AuditEntryRow = Awaited<ReturnType<typeof readStore>>[number];

/** A page of a tenant's entries from both its chains, newest first, and whether more follow. */
export async function readAuditPage(
  stores: readonly AuditHandle[],
  filters: AuditFilters,
  limit: number,
  after?: AuditPosition,
): Promise<{ rows: AuditEntryRow[]; more: boolean }> {
  const read = await Promise.all(stores.map((store) => readStore(store, filters, limit + 1, after)));
  const merged = read
    .flat()
    .sort((a, b) =>
      b.createdAt === a.createdAt ? (b.id < a.id ? -1 : 1) : b.createdAt < a.createdAt ? -1 : 1,
    );
  return { rows: merged.slice(0, limit), more: merged.length > limit };
}

/** One entry by id from either chain (undefined: not this tenant's, or not the merchant's). */
export async function readAuditEntry(stores: readonly AuditHandle[], id: string, merchantId?: string) {
  const found = await Promise.all(
    stores.map(async (handle) => {
      const t = auditTableOf(handle);
      const [row] = await databaseOf(handle)
        .select()
        .from(t)
        .where(
          and(
            eq(t.tenantId, handle.tenantId),
            eq(t.id, id),
            ...(merchantId ? [eq(t.merchantId, merchantId)] : []),
          ),
        )
        .limit(1);
      return row && { ...row, store: storeOf(handle) as AuditStore };
    }),
  );
  return found.find((row) => row !== undefined);
}
