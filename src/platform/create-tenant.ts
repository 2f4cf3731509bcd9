import { uuidv7 } from "uuidv7";
import { generateApiKey } from "../auth/api-keys";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { PlatformDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { apiKeys, invitations, memberships, tenants, users } from "../db/schema/platform";
import { conflict } from "../http/errors";
import { findUserByEmail, newUser } from "../identity/accounts";
import { invitationRecord } from "../identity/invitation-records";
import { newInvitation } from "../identity/invite-member";
import { type TenantRow, tenantRecord } from "./records";

/**
 * Creates a tenant on `shard` (its directory entry) in one atomic batch. For an email without an account: the owner's account (with the
 * password the operator chose for this new person), the membership and a first admin key. For an email
 * that has an account: only an owner invitation, which that person accepts like any other; nothing of
 * the account is touched, and no key exists yet, since a key is worth its creator's role and nobody
 * holds one in the tenant until the invitation is accepted. `invitationToken` goes only into the mail.
 */
/** The tenant's first audit entry: the operator made it, with its owner (or invitation) and first key. */
const tenantCreated = (db: PlatformDb, tenant: TenantRow, by: AuditActor, made: Record<string, string>) =>
  auditRow({ db, tenantId: tenant.id }, by, {
    action: "tenant.created",
    target: { type: "tenant", id: tenant.id },
    after: { ...tenantRecord(tenant), ...made },
  });

export async function createTenant(
  db: PlatformDb,
  environment: string,
  shard: string,
  input: { name: string; plan: TenantRow["plan"]; owner: { email: string; password: string; name: string } },
  by: AuditActor,
  now = new Date(),
) {
  const at = now.toISOString();
  const tenant: TenantRow = {
    id: uuidv7(),
    name: input.name,
    plan: input.plan,
    status: "active",
    shard,
    createdAt: at,
    updatedAt: at,
  };
  if (await findUserByEmail(db, input.owner.email)) {
    const { row, token } = await newInvitation(
      tenant.id,
      { email: input.owner.email, role: "owner" },
      { invitedByType: "platform", invitedById: null },
      now,
    );
    await runBatch(db, {
      tenant: db.insert(tenants).values(tenant),
      invitation: db.insert(invitations).values(row),
      audit: tenantCreated(db, tenant, by, { ownerInvitationId: row.id }),
    });
    const created = {
      tenant: tenantRecord(tenant),
      owner: null,
      ownerInvitation: invitationRecord(row, now),
      apiKey: null,
    };
    return { created, invitationToken: token };
  }

  const user = await newUser(input.owner, at);
  const key = await generateApiKey(environment);
  const keyId = uuidv7();
  try {
    await runBatch(db, {
      tenant: db.insert(tenants).values(tenant),
      owner: db.insert(users).values(user),
      membership: db
        .insert(memberships)
        .values({ tenantId: tenant.id, userId: user.id, role: "owner", createdAt: at, updatedAt: at }),
      apiKey: db.insert(apiKeys).values({
        id: keyId,
        tenantId: tenant.id,
        name: "Initial admin key",
        prefix: key.prefix,
        keyHash: key.keyHash,
        scopes: ["admin"],
        createdBy: user.id,
        createdAt: at,
      }),
      audit: tenantCreated(db, tenant, by, { ownerId: user.id, apiKeyId: keyId }),
    });
  } catch (error) {
    throw answerFor(error, {
      users_email_unique: () => conflict("An account for this email was created meanwhile; retry"),
    });
  }
  const created = {
    tenant: tenantRecord(tenant),
    owner: { id: user.id, email: user.email, name: user.name, role: "owner" as const },
    ownerInvitation: null,
    apiKey: { id: keyId, key: key.key, prefix: key.prefix, scopes: ["admin" as const] },
  };
  return { created, invitationToken: undefined };
}
