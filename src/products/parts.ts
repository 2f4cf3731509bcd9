import { and, asc, eq, exists, getTableColumns, isNotNull, notInArray, type SQL, sql } from "drizzle-orm";
import { inJsonArray, runBatch, type Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { kitComponents, orders, productPackagings, products } from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { assertFound, conflict } from "../http/errors";
import { validationError } from "../http/validation";
import type { ProductRow } from "./records";
import type { KitComponent, Packaging } from "./schemas";

// A product's parts: a kit's components and a stocked product's packagings, each stored in its own table and
// replaced whole when a write sends the list.

export interface ProductParts {
  components: KitComponent[];
  packagings: (Packaging & { barcode: string | null })[];
}

export const noParts: ProductParts = { components: [], packagings: [] };

/** The parts of products already read (a bulk write's), by product id, in one round trip (none: no parts). */
export async function readParts(tdb: TenantDb, ids: readonly string[]): Promise<Map<string, ProductParts>> {
  const parts = new Map<string, ProductParts>();
  if (ids.length === 0) return parts;
  const read = await runBatch(tdb, {
    components: tdb.db
      .select()
      .from(kitComponents)
      .where(inTenant(tdb, kitComponents, inJsonArray(kitComponents.kitId, ids)))
      .orderBy(asc(kitComponents.kitId), asc(sql`rowid`)),
    packagings: tdb.db
      .select()
      .from(productPackagings)
      .where(inTenant(tdb, productPackagings, inJsonArray(productPackagings.productId, ids)))
      .orderBy(asc(productPackagings.productId), asc(productPackagings.quantity)),
  });
  const of = (id: string) => {
    const found = parts.get(id) ?? { components: [], packagings: [] };
    parts.set(id, found);
    return found;
  };
  for (const c of read.components)
    of(c.kitId).components.push({ productId: c.componentId, quantity: c.quantity });
  for (const p of read.packagings)
    of(p.productId).packagings.push({ code: p.code, name: p.name, quantity: p.quantity, barcode: p.barcode });
  return parts;
}

/** A product and its parts, as reads and writes return them. */
export interface StoredProduct {
  row: ProductRow;
  parts: ProductParts;
}

/**
 * The parts of the product row being selected, as a JSON column of the same statement: a product, or a page of
 * them, is read with its parts in one round trip.
 */
const partsJson = sql<string>`json_object(
  'components', (select json_group_array(json_object('productId', c.component_id, 'quantity', c.quantity))
    from (select component_id, quantity from kit_components
      where tenant_id = ${products.tenantId} and kit_id = ${products.id} order by rowid) c),
  'packagings', (select json_group_array(json_object('code', p.code, 'name', p.name, 'quantity', p.quantity,
      'barcode', p.barcode))
    from (select code, name, quantity, barcode from product_packagings
      where tenant_id = ${products.tenantId} and product_id = ${products.id} order by quantity) p))`;

/** What to select for a product with its parts; `withParts` reads the selected row. */
export const productWithParts = { ...getTableColumns(products), parts: partsJson };

export const withParts = ({ parts, ...row }: ProductRow & { parts: string }): StoredProduct => ({
  row,
  parts: JSON.parse(parts) as ProductParts,
});

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

/** The 409s of a barcode that already names something else in the tenant. */
export const barcodeTaken = {
  product_packagings_tenant_barcode_unique: "A packaging with this barcode already exists",
  barcode_taken: "The barcode already names another product or packaging",
};

/** A kit's components in use: 409 while an open order holds the kit. */
export const kitHeld = () =>
  conflict("The kit is on open orders: its components change only when no open order holds it");
