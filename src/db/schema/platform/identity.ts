import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const tenants = sqliteTable(
  "tenants",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    plan: text("plan", { enum: ["starter", "business", "enterprise"] }).notNull(),
    status: text("status", { enum: ["active", "suspended"] })
      .notNull()
      .default("active"),
    // The directory: the shard binding (SHARD_<n>) holding the tenant's tables.
    shard: text("shard").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("tenants_shard_idx").on(t.shard),
    check("tenants_plan_check", sql`${t.plan} in ('starter', 'business', 'enterprise')`),
    check("tenants_status_check", sql`${t.status} in ('active', 'suspended')`),
    index("tenants_created_idx").on(t.createdAt, t.id),
  ],
);

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    // Stored lower-cased, so the unique index makes email unique case-insensitively.
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    passwordSalt: text("password_salt").notNull(),
    passwordIterations: integer("password_iterations").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

export const memberships = sqliteTable(
  "memberships",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    role: text("role", { enum: ["owner", "admin", "manager", "operator", "viewer"] }).notNull(),
    // A member acting for one merchant of the tenant only (docs/decisions/merchants.md); null: the whole tenant.
    merchantId: text("merchant_id"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    index("memberships_user_idx").on(t.userId),
    check("memberships_role_check", sql`${t.role} in ('owner', 'admin', 'manager', 'operator', 'viewer')`),
  ],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name").notNull(),
    // The first characters of the key, shown in lists so people can tell keys apart.
    prefix: text("prefix").notNull(),
    // SHA-256 of the whole key (hex): a key is high-entropy, so a fast hash is enough.
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    allowedIps: text("allowed_ips", { mode: "json" }).$type<string[] | null>(),
    expiresAt: text("expires_at"),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
    createdBy: text("created_by"),
    // A key acting for one merchant of the tenant only; null: the whole tenant.
    merchantId: text("merchant_id"),
    // For a key made with a key: the keys above it, its maker last (the maker's own list, then the maker). It
    // works only while every one of them does (src/auth/rights.ts); null or empty: a member made it.
    grantorKeys: text("grantor_keys", { mode: "json" }).$type<string[] | null>(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("api_keys_hash_unique").on(t.keyHash),
    index("api_keys_tenant_created_idx").on(t.tenantId, t.createdAt),
  ],
);

export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    // Every token issued by one login shares a family; reusing a rotated token revokes the family.
    familyId: text("family_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    expiresAt: text("expires_at").notNull(),
    rotatedAt: text("rotated_at"),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("refresh_tokens_hash_unique").on(t.tokenHash),
    index("refresh_tokens_family_idx").on(t.familyId),
    // A password change or reset revokes every family of the user.
    index("refresh_tokens_user_idx").on(t.userId),
  ],
);

export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    // Lower-cased, like users.email. Nothing about an account with this email is copied here.
    email: text("email").notNull(),
    role: text("role", { enum: ["owner", "admin", "manager", "operator", "viewer"] }).notNull(),
    // SHA-256 of the one-time token that was mailed to `email`; the token itself is stored nowhere.
    tokenHash: text("token_hash").notNull(),
    invitedByType: text("invited_by_type", { enum: ["user", "api_key", "platform"] }).notNull(),
    invitedById: text("invited_by_id"),
    // The merchant the person will act for (a 3PL's brand); null: the whole tenant.
    merchantId: text("merchant_id"),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    acceptedBy: text("accepted_by").references(() => users.id),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_unique").on(t.tokenHash),
    // At most one open invitation per tenant and email: inviting again replaces (revokes) the open one.
    uniqueIndex("invitations_open_unique")
      .on(t.tenantId, t.email)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    index("invitations_tenant_created_idx").on(t.tenantId, t.createdAt),
    check("invitations_role_check", sql`${t.role} in ('owner', 'admin', 'manager', 'operator', 'viewer')`),
    check("invitations_invited_by_check", sql`${t.invitedByType} in ('user', 'api_key', 'platform')`),
  ],
);

export const passwordResetTokens = sqliteTable(
  "password_reset_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    // SHA-256 of the one-time token that was mailed; the token itself is stored nowhere.
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("password_reset_tokens_hash_unique").on(t.tokenHash),
    index("password_reset_tokens_user_idx").on(t.userId),
  ],
);

export const signInClients = sqliteTable(
  "sign_in_clients",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    // SHA-256 of the client as the login limits count it (an IPv4 address or an IPv6 /64).
    clientHash: text("client_hash").notNull(),
    lastSignInAt: text("last_sign_in_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.clientHash] }),
    index("sign_in_clients_last_idx").on(t.lastSignInAt),
  ],
);
