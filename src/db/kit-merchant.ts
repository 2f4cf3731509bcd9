import { type SQL, sql } from "drizzle-orm";
import { conflict } from "../http/errors";
import type { TenantDb } from "./client";
import { kitComponents, products } from "./schema/tenant";

// A kit and its components belong to one merchant (docs/decisions/merchants.md): a kit's order line reserves its
// components on the same order, and an order may not mix merchants. Product writes that could split them (a
// component's or a kit's merchant change, a kit's new components) check it inside their own batch with these
// conditions. They read the whole tenant's rows, whoever writes: a merchant-scoped handle does not see the other
// merchant's rows, which are the ones that would split a kit.

/** Kits listing product `productId` as a component whose merchant is not `merchantId` (null: the tenant's own). */
const kitsOfAnotherOwner = (tenantId: string, productId: string, merchantId: string | null) =>
  sql`select kit.id, kit.sku from ${kitComponents} kc
    join ${products} kit on kit.tenant_id = kc.tenant_id and kit.id = kc.kit_id
    where kc.tenant_id = ${tenantId} and kc.component_id = ${productId} and kit.merchant_id is not ${merchantId}
    order by kit.sku`;

/**
 * Product `productId` with merchant `merchantId` keeps every kit whole: no kit of another owner lists it as a
 * component, and, a kit, none of its components (`componentIds` when the write sends them, else the stored ones) is
 * of another owner. Put it in the write's batch (`refuseUnless`) before its parts are replaced.
 */
export function keepsKitsWhole(
  tdb: TenantDb,
  productId: string,
  merchantId: string | null,
  componentIds?: readonly string[],
): SQL {
  const t = tdb.tenantId;
  const components = componentIds
    ? sql`select value as id from json_each(${JSON.stringify(componentIds)})`
    : sql`select kc.component_id as id from ${kitComponents} kc where kc.tenant_id = ${t} and kc.kit_id = ${productId}`;
  return sql`not exists (${kitsOfAnotherOwner(t, productId, merchantId)})
    and not exists (select 1 from (${components}) component
      join ${products} p on p.tenant_id = ${t} and p.id = component.id where p.merchant_id is not ${merchantId})`;
}

/** 409 naming the kits of another owner than `merchantId` that list product `sku` (`productId`) as a component. */
export async function assertNotComponentOfOthers(
  tdb: TenantDb,
  product: { id: string; sku: string },
  merchantId: string | null,
) {
  const kits = await tdb.db.all<{ id: string; sku: string }>(
    kitsOfAnotherOwner(tdb.tenantId, product.id, merchantId),
  );
  if (kits.length === 0) return;
  const named = kits.map((kit) => `${kit.sku} (${kit.id})`).join(", ");
  throw conflict("The product is a component of another owner's kits; take it out of them first", [
    `merchantId: ${product.sku} is a component of ${kits.length === 1 ? "kit" : "kits"} ${named} of another owner; a kit and its components belong to one merchant`,
  ]);
}
