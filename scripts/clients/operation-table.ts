// The operation table: every operation of the served OpenAPI document, reduced to what a client needs to
// call it (verb, path, parameters, body fields, who may call it, whether a retry is safe), named through
// clients/naming.json. Every client's operation methods are rendered from this one table, so keeping the
// four clients in step with the API is `npm run clients:generate`, and the drift test compares this table
// with the document the Worker serves.

import {
  type EnumType,
  type Model,
  ModelBuilder,
  modelName,
  type TypeRef,
  type UnionType,
} from "./model-table.ts";

export type ValueType = "string" | "integer" | "number" | "boolean" | "array" | "object" | "any";

export interface Field {
  name: string;
  type: ValueType;
  required: boolean;
  nullable: boolean;
  enum?: string[];
}

export interface Body {
  required: boolean;
  /** `object`: named fields (rendered as arguments); `array` or `any`: one value passed as is. */
  shape: "object" | "array" | "any";
  fields: Field[];
  /** The operation also accepts the body as CSV text (`text/csv`). */
  csv: boolean;
}

/**
 * Who may call: `public` (no credential), `credential` (any JWT or key, no tenant), `tenant` (a credential
 * acting on a tenant) or `platform` (the platform operator token).
 */
export type Access = "public" | "credential" | "tenant" | "platform";

/**
 * When a failed attempt may be repeated: `safe` (GET, PUT, DELETE: repeating changes nothing more),
 * `idempotency-key` (a POST or PATCH the server de-duplicates by its Idempotency-Key), `refused-only` (anything
 * else: only a 429, which the server refused before doing anything).
 */
export type Retry = "safe" | "idempotency-key" | "refused-only";

export interface Operation {
  operationId: string;
  group: string;
  method: string;
  httpMethod: string;
  path: string;
  access: Access;
  retry: Retry;
  pathParams: string[];
  query: Field[];
  headers: Field[];
  body: Body | null;
  /** The data is a page (`items`, `totalPages`) and the query takes `page`: clients add an iterator. */
  paged: boolean;
  /**
   * The data is a cursor page (`items`, `nextCursor`, `hasMore`) and the query takes `after`: clients add a
   * feed that follows it item by item and exposes the position to store.
   */
  cursor: boolean;
  /** The response can also be a CSV download (`format=csv`): clients add a method returning the text. */
  csv: boolean;
  /**
   * The success is a file, not the JSON envelope (a label as PDF or ZPL): the media types it may come as, sent
   * as `Accept`; clients return its bytes unparsed. Null for every JSON operation.
   */
  download: string[] | null;
  /** The JSON body's type (a model for an object body), for the typed clients. */
  bodyType: TypeRef | null;
  /** The type of the envelope's `data`; for a page or a cursor page, `itemType` is its items'. */
  dataType: TypeRef | null;
  itemType: TypeRef | null;
}

export interface OperationTable {
  operations: Operation[];
  models: Model[];
  enums: EnumType[];
  /** Tagged unions: the document's `Event`, and `WebhookEvent` (a verified delivery's body) from its webhooks. */
  unions: UnionType[];
}

/** The union a webhook receiver verifies: the body of every webhook the document declares. */
export const WEBHOOK_EVENT = "WebhookEvent";

export interface Naming {
  operations: Record<string, string>;
  omit: Record<string, string>;
}

type Schema = Record<string, unknown>;
type Document = {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
  webhooks?: Record<string, Record<string, Schema>>;
};

const HTTP_METHODS = ["get", "put", "post", "delete", "patch"];
// Headers every client sets itself: credentials, tenant, idempotency.
const TRANSPORT_HEADERS = new Set(["x-tenant-id", "idempotency-key", "authorization", "x-api-key"]);

function resolve(doc: Document, schema: Schema | undefined): Schema {
  if (!schema) return {};
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace("#/components/schemas/", "");
  const target = doc.components?.schemas?.[name];
  if (!target) throw new Error(`unresolved $ref ${ref}`);
  return resolve(doc, target);
}

/** Reduces a JSON schema to the value type a client signature can state. */
function valueType(doc: Document, raw: Schema | undefined): Omit<Field, "name" | "required"> {
  const schema = resolve(doc, raw);
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) {
    const types = variants.map((variant) => valueType(doc, variant));
    const nonNull = types.filter((t) => !(t.type === "any" && t.nullable));
    const distinct = new Set(nonNull.map((t) => t.type));
    const nullable = types.some((t) => t.nullable);
    return { type: distinct.size === 1 ? (nonNull[0]?.type ?? "any") : "any", nullable };
  }
  const declared = Array.isArray(schema.type)
    ? (schema.type as string[])
    : [schema.type as string | undefined];
  const type = declared.find((t) => t !== "null" && t !== undefined) as ValueType | undefined;
  const known: ValueType[] = ["string", "integer", "number", "boolean", "array", "object"];
  const result: Omit<Field, "name" | "required"> = {
    type: type && known.includes(type) ? type : "any",
    nullable: declared.includes("null"),
  };
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string")) {
    result.enum = schema.enum as string[];
  }
  return result;
}

function fieldsOf(doc: Document, schema: Schema): Field[] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {}).map(
    ([name, prop]) => ({
      name,
      required: required.has(name),
      ...valueType(doc, prop),
    }),
  );
}

function bodyOf(doc: Document, operation: Schema): Body | null {
  const requestBody = operation.requestBody as
    | { required?: boolean; content?: Record<string, Schema> }
    | undefined;
  if (!requestBody?.content) return null;
  const json = requestBody.content["application/json"];
  const schema = resolve(doc, json?.schema as Schema | undefined);
  const shape = schema.type === "object" ? "object" : schema.type === "array" ? "array" : "any";
  return {
    required: requestBody.required === true,
    shape,
    fields: shape === "object" ? fieldsOf(doc, schema) : [],
    csv: "text/csv" in requestBody.content,
  };
}

function successOf(operation: Schema): Schema {
  const responses = operation.responses as Record<string, Schema>;
  const status = Object.keys(responses).find((code) => code.startsWith("2"));
  if (!status) throw new Error(`${operation.operationId as string}: no 2xx response`);
  return responses[status] as Schema;
}

function accessOf(operation: Schema): Access {
  const security = (operation.security as Record<string, string[]>[] | undefined) ?? [];
  if (security.length === 0) return "public";
  if (security.some((requirement) => "PlatformToken" in requirement)) return "platform";
  return operation["x-required-scopes"] ? "tenant" : "credential";
}

function parametersOf(doc: Document, operation: Schema, where: string): Field[] {
  const parameters = (operation.parameters as Schema[] | undefined) ?? [];
  return parameters
    .filter((p) => p.in === where)
    .filter((p) => where !== "header" || !TRANSPORT_HEADERS.has(String(p.name).toLowerCase()))
    .map((p) => ({
      name: String(p.name),
      required: p.required === true,
      ...valueType(doc, p.schema as Schema),
    }));
}

function splitName(operationId: string, naming: Naming): { group: string; method: string } {
  const name = naming.operations[operationId];
  if (!name) {
    throw new Error(
      `operation ${operationId} has no client name: add "${operationId}": "<group>.<method>" to clients/naming.json ` +
        `(or list it under "omit" with the reason), then run npm run clients:generate`,
    );
  }
  const [group, method, ...rest] = name.split(".");
  if (!group || !method || rest.length > 0)
    throw new Error(`clients/naming.json: "${name}" is not "group.method"`);
  return { group, method };
}

function operationOf(
  doc: Document,
  path: string,
  verb: string,
  operation: Schema,
  naming: Naming,
  models: ModelBuilder,
): Operation {
  const operationId = operation.operationId as string;
  const httpMethod = verb.toUpperCase();
  const parameters = (operation.parameters as Schema[] | undefined) ?? [];
  const takesKey = parameters.some(
    (p) => p.in === "header" && String(p.name).toLowerCase() === "idempotency-key",
  );
  const success = successOf(operation);
  const content = (success.content as Record<string, Schema> | undefined) ?? {};
  const envelope = resolve(doc, content["application/json"]?.schema as Schema | undefined);
  const data = resolve(doc, (envelope.properties as Record<string, Schema> | undefined)?.data);
  const dataFields = Object.keys((data.properties as Record<string, Schema> | undefined) ?? {});
  const query = parametersOf(doc, operation, "query");
  const rawData = (envelope.properties as Record<string, Schema> | undefined)?.data;
  const dataType = rawData ? models.typeOf(rawData, `${modelName(operationId)}Result`).type : null;
  const requestSchema = (operation.requestBody as { content?: Record<string, Schema> } | undefined)
    ?.content?.["application/json"]?.schema as Schema | undefined;
  const bodyType = requestSchema
    ? models.typeOf(requestSchema, `${modelName(operationId)}Request`).type
    : null;
  const paged =
    query.some((q) => q.name === "page") && dataFields.includes("items") && dataFields.includes("totalPages");
  const cursor =
    query.some((q) => q.name === "after") &&
    ["items", "nextCursor", "hasMore"].every((field) => dataFields.includes(field));
  const itemType =
    (paged || cursor) && dataType?.kind === "model"
      ? (models.models.get(dataType.name)?.fields.find((f) => f.name === "items")?.type ?? null)
      : null;
  return {
    operationId,
    ...splitName(operationId, naming),
    httpMethod,
    path,
    access: accessOf(operation),
    retry: ["GET", "PUT", "DELETE"].includes(httpMethod)
      ? "safe"
      : takesKey
        ? "idempotency-key"
        : "refused-only",
    pathParams: parametersOf(doc, operation, "path").map((p) => p.name),
    query,
    headers: parametersOf(doc, operation, "header"),
    body: bodyOf(doc, operation),
    paged,
    cursor,
    csv: "text/csv" in content,
    download:
      "application/json" in content || Object.keys(content).length === 0 ? null : Object.keys(content),
    bodyType,
    dataType,
    itemType: itemType?.kind === "array" ? itemType.items : null,
  };
}

/** Builds the table from a served OpenAPI document; throws on an operation the naming map does not name. */
export function buildOperationTable(document: object, naming: Naming): OperationTable {
  const doc = document as Document;
  const models = new ModelBuilder(doc);
  const operations: Operation[] = [];
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [verb, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(verb)) continue;
      const operationId = operation.operationId;
      if (typeof operationId !== "string")
        throw new Error(`${verb.toUpperCase()} ${path} has no operationId`);
      if (operationId in naming.omit) continue;
      const entry = operationOf(doc, path, verb, operation, naming, models);
      const key = `${entry.group}.${entry.method}`;
      const clash = seen.get(key);
      if (clash) throw new Error(`clients/naming.json: ${operationId} and ${clash} are both named ${key}`);
      seen.set(key, operationId);
      operations.push(entry);
    }
  }
  const bodies = Object.values(doc.webhooks ?? {}).map(
    (item) =>
      (item.post?.requestBody as { content?: Record<string, Schema> } | undefined)?.content?.[
        "application/json"
      ]?.schema as Schema,
  );
  if (bodies.length > 0) models.taggedUnion(WEBHOOK_EVENT, "type", bodies);
  const served = new Set(operations.map((o) => o.operationId));
  const stale = Object.keys(naming.operations).filter((id) => !served.has(id) && !(id in naming.omit));
  if (stale.length > 0) {
    throw new Error(`clients/naming.json names operations the document no longer has: ${stale.join(", ")}`);
  }
  return { operations, ...models.result() };
}
