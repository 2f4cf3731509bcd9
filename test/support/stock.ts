import { env } from "cloudflare:workers";
import { call } from "./http";
import type { TestTenant } from "./tenants";

/** Adjusts stock through POST /inventory/adjustments with the tenant's admin key; throws unless 201. */
export async function adjustStock(
  tenant: TestTenant,
  productId: string,
  locationId: string,
  quantity: number,
  reason = "test",
) {
  const res = await call("POST", "/inventory/adjustments", {
    headers: tenant.admin,
    body: { productId, locationId, quantity, reason },
  });
  if (res.status !== 201) throw new Error(`adjustStock failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export interface LevelCheck {
  productId: string;
  locationId: string;
  onHand: number;
  reserved: number;
  ledger: number;
}

/** Every stock level of the tenant with the sum of its ledger rows, read straight from D1. */
export async function levelsWithLedger(tenant: TestTenant): Promise<LevelCheck[]> {
  const { results } = await env.DB.prepare(
    `select s.product_id as productId, s.location_id as locationId, s.on_hand as onHand, s.reserved as reserved,
        coalesce((select sum(m.delta) from stock_movements m where m.tenant_id = s.tenant_id
          and m.product_id = s.product_id and m.location_id = s.location_id), 0) as ledger
     from stock_levels s where s.tenant_id = ? order by s.product_id, s.location_id`,
  )
    .bind(tenant.id)
    .all<LevelCheck>();
  return results;
}
