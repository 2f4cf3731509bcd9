import { and, eq, exists, isNotNull, notInArray, type SQL, sql } from "drizzle-orm";
import type { Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { kitComponents, orders, productPackagings, products } from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { assertFound, conflict } from "../http/errors";
import { validationError } from "../http/validation";
import type { ProductRow } from "../product-core/records";
import type { KitComponent, Packaging } from "../product-core/schemas";

// A product's parts written: a kit's components and a stocked product's packagings, each replaced whole when a write
// sends the list (src/product-core/parts.ts reads them).

/** The parts a write sends (each list optional: omitted, it stays as stored). */
export type SentParts = { components?: KitComponent[]; packagings?: Packaging[] };

/**
 * What a product of `type` may have: a kit has components (required on create) and no packagings, tracking
 * `none`; a stocked product has no components. Each component must be another stocked product of the tenant
 * (404 naming a missing one, 400 for a kit) and the kit's merchant's, as an order may not mix merchants (400;
 * a kit of the tenant's own goods takes the tenant's own). `creating`: a new kit must send its components.
 * `kept`: the stored components, checked again when the kit moves to another merchant without sending them.
 */
export async function assertParts(
  tdb: TenantDb,
  product: Pick<ProductRow, "id" | "type" | "tracking" | "merchantId">,
  sent: SentParts,
  creating: boolean,
  kept: readonly KitComponent[] = [],
) {
  const problems: string[] = [];
  if (product.type === "kit") {
    if (creating && !sent.components) problems.push("components: a kit needs its components");
    if (sent.packagings?.length) problems.push("packagings: a kit holds no stock, so it has no packagings");
    if (product.tracking !== "none") problems.push("tracking: a kit is not tracked (its components are)");
  } else if (sent.components) {
    problems.push('components: only a product of type "kit" has components');
  }
  if (problems.length) throw validationError(problems);
  const ids = (sent.components ?? kept).map((c) => c.productId);
  if (ids.length === 0) return;
  const found = await tdb.db
    .select({ id: products.id, sku: products.sku, type: products.type, merchantId: products.merchantId })
    .from(products)
    .where(inTenantAmong(tdb, products, ids));
  const byId = new Map(found.map((p) => [p.id, p]));
  assertFound(
    ids.flatMap((id, i) => (byId.has(id) ? [] : [`components[${i}].productId: product ${id} not found`])),
  );
  const wrong = ids.flatMap((id, i) => {
    if (id === product.id) return [`components[${i}].productId: a kit cannot contain itself`];
    const component = byId.get(id);
    if (component?.type === "kit")
      return [
        `components[${i}].productId: ${component.sku} is a kit; a kit's components are stocked products`,
      ];
    if (component && component.merchantId !== product.merchantId) {
      const owner = product.merchantId
        ? `the kit's merchant (${product.merchantId})`
        : "the tenant's own goods";
      return [
        `components[${i}].productId: ${component.sku} is not of ${owner}; a kit and its components belong to one merchant`,
      ];
    }
    return [];
  });
  if (wrong.length) throw validationError(wrong);
}

/** Open sales orders (not shipped, delivered or cancelled) with a line of kit `id`. */
export const kitOnOpenOrder = (tdb: TenantDb, id: string | SQL) =>
  exists(
    tdb.db
      .select({ one: sql`1` })
      .from(sql`${orders}, json_each(${orders.kitLines}) as kit_line`)
      .where(
        and(
          inTenant(tdb, orders, isNotNull(orders.kitLines)),
          notInArray(orders.status, ["shipped", "delivered", "cancelled"]),
          sql`json_extract(kit_line.value, '$.productId') = ${id}`,
        ),
      ),
  );

/** Whether `sent` components differ from the stored ones (order does not matter). */
export function componentsChange(stored: readonly KitComponent[], sent: readonly KitComponent[] | undefined) {
  if (!sent) return false;
  const key = (list: readonly KitComponent[]) =>
    JSON.stringify(list.map((c) => `${c.productId}x${c.quantity}`).sort());
  return key(stored) !== key(sent);
}

/** The statements that replace the sent lists of product `id`, each only while `guard` holds. */
export function replaceParts(tdb: TenantDb, id: string, sent: SentParts, guard: SQL): Statement[] {
  const { db, tenantId } = tdb;
  const statements: Statement[] = [];
  if (sent.components) {
    statements.push(
      db.delete(kitComponents).where(and(inTenant(tdb, kitComponents, eq(kitComponents.kitId, id)), guard)),
      sql`insert into kit_components (tenant_id, kit_id, component_id, quantity)
        select ${tenantId}, ${id}, json_extract(value, '$.productId'), json_extract(value, '$.quantity')
        from json_each(${JSON.stringify(sent.components)}) where ${guard}`,
    );
  }
  if (sent.packagings) {
    statements.push(
      db
        .delete(productPackagings)
        .where(and(inTenant(tdb, productPackagings, eq(productPackagings.productId, id)), guard)),
      sql`insert into product_packagings (tenant_id, product_id, code, name, quantity, barcode)
        select ${tenantId}, ${id}, json_extract(value, '$.code'), json_extract(value, '$.name'),
          json_extract(value, '$.quantity'), json_extract(value, '$.barcode')
        from json_each(${JSON.stringify(sent.packagings)}) where ${guard}`,
    );
  }
  return statements;
}

/** The 409 of a barcode that already names another product or packaging of the same owner. */
export const barcodeTaken = {
  barcode_taken: "The barcode already names another product or packaging",
};

/** A kit's components in use: 409 while an open order holds the kit. */
export const kitHeld = () =>
  conflict("The kit is on open orders: its components change only when no open order holds it");
