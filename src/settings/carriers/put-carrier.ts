import { sql } from "drizzle-orm";
import { type AuditActor, auditRow } from "../../db/audit/writer";
import { runBatch } from "../../db/batch";
import type { TenantDb } from "../../db/client";
import { AppError } from "../../http/errors";
import { encryptSecret } from "../../outbound/secrets";
import { type CarrierRow, carrierRecord } from "./records";
import { MAX_CARRIERS_PER_TENANT, type PutCarrierBody } from "./schemas";

/**
 * `PUT /settings/carriers/{code}`: creates or replaces the code's label service, its secret sealed at rest like a
 * webhook secret. The per-tenant limit is checked by the statement itself, so concurrent creations cannot pass it.
 */
export async function putCarrier(
  tdb: TenantDb,
  secretKey: string,
  code: string,
  input: PutCarrierBody,
  by: AuditActor,
) {
  const now = new Date().toISOString();
  const ciphertext = await encryptSecret(secretKey, input.secret);
  const withinLimit = sql`(select count(*) from carrier_settings where tenant_id = ${tdb.tenantId} and code <> ${code})
      < ${MAX_CARRIERS_PER_TENANT}`;
  const { carrier } = await runBatch(tdb, {
    // First, so its `before` reads the carrier as the change finds it; the secret is never part of it.
    audit: auditRow(
      tdb,
      by,
      {
        action: "carrier.updated",
        target: { type: "carrier", id: code },
        before: sql`(select json_object('adapter', c.adapter, 'url', c.url) from carrier_settings c
          where c.tenant_id = ${tdb.tenantId} and c.code = ${code})`,
        after: { adapter: input.adapter, url: input.url },
      },
      { onlyIf: withinLimit },
    ),
    carrier: sql`insert into carrier_settings
      (tenant_id, code, adapter, url, secret_ciphertext, created_at, updated_at)
    select ${tdb.tenantId}, ${code}, ${input.adapter}, ${input.url}, ${ciphertext}, ${now}, ${now}
    where ${withinLimit}
    on conflict (tenant_id, code) do update set
      adapter = excluded.adapter, url = excluded.url, secret_ciphertext = excluded.secret_ciphertext,
      updated_at = excluded.updated_at
    returning created_at`,
  });
  const [written] = carrier.results as { created_at: string }[];
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
