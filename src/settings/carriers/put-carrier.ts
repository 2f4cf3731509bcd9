import { sql } from "drizzle-orm";
import type { TenantDb } from "../../db/client";
import { AppError } from "../../http/errors";
import { encryptSecret } from "../../outbound/secrets";
import { type CarrierRow, carrierRecord } from "./records";
import { MAX_CARRIERS_PER_TENANT, type PutCarrierBody } from "./schemas";

/**
 * `PUT /settings/carriers/{code}`: creates or replaces the code's label service, its secret sealed at rest like a
 * webhook secret. The per-tenant limit is checked by the statement itself, so concurrent creations cannot pass it.
 */
export async function putCarrier(tdb: TenantDb, secretKey: string, code: string, input: PutCarrierBody) {
  const now = new Date().toISOString();
  const ciphertext = await encryptSecret(secretKey, input.secret);
  const [written] = await tdb.db.all<{ created_at: string }>(sql`insert into carrier_settings
      (tenant_id, code, adapter, url, secret_ciphertext, created_at, updated_at)
    select ${tdb.tenantId}, ${code}, ${input.adapter}, ${input.url}, ${ciphertext}, ${now}, ${now}
    where (select count(*) from carrier_settings where tenant_id = ${tdb.tenantId} and code <> ${code})
      < ${MAX_CARRIERS_PER_TENANT}
    on conflict (tenant_id, code) do update set
      adapter = excluded.adapter, url = excluded.url, secret_ciphertext = excluded.secret_ciphertext,
      updated_at = excluded.updated_at
    returning created_at`);
  if (!written) {
    const message = `A tenant can configure at most ${MAX_CARRIERS_PER_TENANT} carriers`;
    throw new AppError("VALIDATION_FAILED", message, { errors: [message] });
  }
  const row: CarrierRow = {
    tenantId: tdb.tenantId,
    code,
    adapter: input.adapter,
    url: input.url,
    secretCiphertext: ciphertext,
    createdAt: written.created_at,
    updatedAt: now,
  };
  return carrierRecord(row);
}
