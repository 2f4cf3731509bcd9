import { z } from "@hono/zod-openapi";
import { auditActions } from "../db/audit/catalogue";
import { nameList } from "../http/name-list";

const timestamp = z.iso
  .datetime({ offset: true, message: "must be an ISO 8601 date or timestamp" })
  .or(z.iso.date("must be an ISO 8601 date or timestamp"));

const escaped = (name: string) => name.replaceAll(".", "\\.").replace("*", "\\*");
const families = [...new Set(auditActions.map((action) => `${action.split(".")[0]}.*`))];
const oneAction = `(${[...auditActions, ...families].map(escaped).join("|")})`;
/** The names and families the filter takes, comma-separated: the document refuses what the API refuses. */
const actionsPattern = `^ *${oneAction} *(, *${oneAction} *)*$`;

const actionNames = nameList(auditActions, "audit action").openapi({
  type: "string",
  pattern: actionsPattern,
  description: `Comma-separated actions, or families such as \`member.*\`. One of: ${auditActions.join(", ")}.`,
  example: "api_key.*,member.role_changed",
});

export const AuditListQuery = z
  .object({
    action: actionNames.optional(),
    actorId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "Only entries of this member or key." }),
    targetType: z
      .string()
      .regex(/^[a-z_]{1,40}$/, "must be a target type such as api_key or webhook")
      .optional()
      .openapi({
        description: "Only entries about this kind of thing (`api_key`, `member`, `webhook`, ...).",
      }),
    targetId: z.string().min(1).max(64).optional().openapi({ description: "Only entries about this thing." }),
    from: timestamp.optional().openapi({ description: "From this instant (a date: its midnight, UTC)." }),
    to: timestamp
      .optional()
      .openapi({ description: "Up to this instant, inclusive (a date: that whole day)." }),
    after: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: "The `nextCursor` of the previous page." }),
    limit: z.coerce
      .number({ error: "must be an integer between 1 and 100" })
      .int("must be an integer between 1 and 100")
      .min(1, "must be an integer between 1 and 100")
      .max(100, "must be an integer between 1 and 100")
      .default(50),
    format: z.enum(["json", "csv"], { error: "must be json or csv" }).default("json").openapi({
      description: "`json` (the envelope, a page) or `csv` (a streamed download of every matching entry).",
    }),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), {
    message: "must not be before from",
    path: ["to"],
  });
export type AuditListQuery = z.infer<typeof AuditListQuery>;

const Link = z.object({ type: z.string(), id: z.string() });

const AuditChain = z.enum(["platform", "tenant"]).openapi("AuditChain", {
  description:
    "Which of the tenant's two chains holds an entry: `platform` (sign-ins, keys, members, the tenant itself) or " +
    "`tenant` (webhooks, settings, carriers, merchants, billing), each written with its change.",
});

export const AuditEntry = z
  .object({
    id: z.string(),
    chain: AuditChain,
    seq: z.number().int().openapi({ description: "Its place in its chain (1, 2, ... without gaps)." }),
    action: z.string().openapi({ example: "api_key.created" }),
    actor: z.object({
      type: z.enum(["user", "api_key", "platform", "anonymous"]).openapi("AuditActorType"),
      id: z.string().nullable(),
      chain: z.array(Link).openapi({
        description:
          "The credential, then what it acts under: a key's makers (nearest first), then its member.",
      }),
    }),
    merchantId: z.string().nullable(),
    target: z.object({ type: z.string(), id: z.string().nullable() }),
    before: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "Secret fields are [redacted]." }),
    after: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "Secret fields are [redacted]." }),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    requestId: z.string().nullable(),
    createdAt: z.string().openapi({ format: "date-time" }),
    prevHash: z
      .string()
      .nullable()
      .openapi({ description: "The hash of the entry before it (null until sealed)." }),
    hash: z
      .string()
      .nullable()
      .openapi({ description: "SHA-256 of prevHash and this entry (null until sealed)." }),
  })
  .openapi("AuditEntry");

export const AuditPage = z
  .object({
    items: z.array(AuditEntry),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: "Send as `after` for the next page; null: the last." }),
  })
  .openapi("AuditPage");

const ChainCheck = z.object({
  chain: AuditChain,
  entries: z.number().int().openapi({ description: "Entries checked, from the first." }),
  head: z.object({ seq: z.number().int(), hash: z.string() }).nullable(),
  broken: z
    .object({ id: z.string().nullable(), seq: z.number().int(), reason: z.string() })
    .nullable()
    .openapi({
      description: "The first entry that breaks the chain (changed, missing, relinked); null: none.",
    }),
});

export const AuditVerification = z
  .object({ valid: z.boolean(), chains: z.array(ChainCheck) })
  .openapi("AuditVerification");
