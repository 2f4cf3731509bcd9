import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Method } from "./support/api-types";
import { createTenant, PLATFORM, type TestTenant } from "./support/builders";
import { call } from "./support/http";
import { type OpenApiDocument, type SchemaObject as Schema, servedDocument } from "./support/openapi";

// Every operation in the OpenAPI document, fed malformed ids, malformed query parameters, arbitrary JSON
// bodies, control characters, huge numbers and internal hosts: whatever it is sent, the answer is a 4xx in
// the envelope, never a 500.

interface Operation {
  method: Method;
  path: string;
  query: { name: string; schema?: Schema }[];
  body?: Schema;
}

let tenant: TestTenant;
let doc: OpenApiDocument;
let operations: Operation[];
beforeAll(async () => {
  tenant = await createTenant();
  doc = await servedDocument();
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase() as Method,
      path: path.replace(/^\/api\/v1/, ""),
      query: (operation.parameters ?? []).filter((p) => p.in === "query"),
      body: operation.requestBody?.content["application/json"]?.schema,
    })),
  );
});

/** A body's leaf: where it is (`lines[0].quantity`) and the schema that describes it. */
interface Leaf {
  path: (string | number)[];
  schema: Schema;
}

const resolved = (schema: Schema): Schema => {
  let s = schema;
  while (s.$ref) s = doc.components?.schemas?.[s.$ref.split("/").at(-1) ?? ""] ?? {};
  const choice = s.anyOf ?? s.oneOf;
  // A `oneOf` beside an object's own properties only says which of them are required (a count's scope).
  if (choice && !s.properties)
    return resolved(choice.find((option) => resolved(option).type !== "null") ?? {});
  // So does an `allOf` beside them: the rules across its fields (src/http/field-rules.ts).
  if (s.allOf && !s.properties) return Object.assign({}, ...s.allOf.map(resolved));
  return s;
};

const typeOf = (s: Schema) => (Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type);

/** A valid value for a schema (every property, one item per array), with the list of its leaves. */
function sample(schema: Schema, path: (string | number)[] = [], leaves: Leaf[] = []): unknown {
  const s = resolved(schema);
  const type = typeOf(s);
  if (type === "object") {
    return Object.fromEntries(
      Object.entries(s.properties ?? {}).map(([key, property]) => [
        key,
        sample(property, [...path, key], leaves),
      ]),
    );
  }
  if (type === "array") {
    if (Array.isArray(s.example)) {
      return s.example.map((item, i) => {
        leaves.push({ path: [...path, i], schema: resolved(s.items ?? {}) });
        return item;
      });
    }
    return Array.from({ length: Math.max(1, s.minItems ?? 1) }, (_, i) =>
      sample(s.items ?? {}, [...path, i], leaves),
    );
  }
  leaves.push({ path, schema: s });
  if (s.enum) return s.enum[0];
  if (s.example !== undefined) return s.example;
  if (type === "integer" || type === "number") return Math.max(s.minimum ?? 1, 1);
  if (type === "boolean") return true;
  switch (s.format) {
    case "uuid":
      return crypto.randomUUID();
    case "email":
      return `someone-${crypto.randomUUID()}@example.com`;
    case "date-time":
      return new Date(Date.now() + 86_400_000).toISOString();
    case "date":
      return new Date().toISOString().slice(0, 10);
    case "uri":
      return "https://hooks.example.com/x";
    default:
      return "x".repeat(Math.max(s.minLength ?? 1, 8));
  }
}

function withLeaf(value: unknown, path: (string | number)[], leaf: unknown): unknown {
  const copy = structuredClone(value);
  type Node = Record<string | number, unknown>;
  const parent = path.slice(0, -1).reduce<Node>((node, key) => node[key] as Node, copy as Node);
  parent[path.at(-1)!] = leaf;
  return copy;
}

/** `lines[0].quantity`, as the API names a field in its errors. */
const fieldName = (path: (string | number)[]) =>
  path.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? key : `.${key}`)).join("");

const CONTROL = "a\u0000b\u001b[2J\u007f";
const HUGE = [1e308, 2 ** 53 + 1, -1e20];
const INTERNAL_HOSTS = [
  "https://localhost./",
  "https://metadata.google.internal./",
  "https://LOCALHOST.:8443/",
];

const urlOf = (path: string) => path.replace(/\{[^}]+\}/g, () => crypto.randomUUID());

const headersFor = (path: string) => (path.startsWith("/platform") ? PLATFORM : tenant.admin);

// Each test walks every operation of the document, so its time grows with the API: minutes on a loaded machine.
describe("bad input never causes a 500", { timeout: 300_000 }, () => {
  it("covers the whole API", () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  it("malformed and unknown ids, and junk query parameters", async () => {
    for (const { method, path } of operations) {
      for (const id of ["not-a-uuid", crypto.randomUUID(), "%00", "1 or 1=1"]) {
        const url = `${path.replace(/\{[^}]+\}/g, encodeURIComponent(id))}?page=-1&pageSize=abc&sort=%27&from=x&to=y&status=%3Cscript%3E&format=xml`;
        const body = method === "GET" || method === "DELETE" ? undefined : {};
        const res = await call(method, url, { headers: headersFor(path), body });
        expect(res.status, `${method} ${url}`).toBeLessThan(500);
        expect(res.status, `${method} ${url}`).toBeGreaterThanOrEqual(200);
        if (res.status >= 400) expect(res.body.success, `${method} ${url}`).toBe(false);
      }
    }
  });

  it("arbitrary JSON bodies on every write", async () => {
    const writes = () => operations.filter((o) => o.method !== "GET" && o.method !== "DELETE");
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
        for (const { method, path } of writes()) {
          const url = path.replace(/\{[^}]+\}/g, crypto.randomUUID());
          const res = await call(method, url, {
            headers: headersFor(path),
            body: JSON.stringify(value) ?? "null",
          });
          expect(res.status, `${method} ${url} ${JSON.stringify(value)}`).toBeLessThan(500);
        }
      }),
      { numRuns: 15 },
    );
  });

  it("bodies that are not JSON, or not what the route reads", async () => {
    for (const { method, path } of operations.filter((o) => o.method !== "GET")) {
      const url = path.replace(/\{[^}]+\}/g, crypto.randomUUID());
      for (const [contentType, body] of [
        ["application/json", "{not json"],
        ["application/json", ""],
        ["text/plain", "hello"],
        ["text/csv", 'sku,name\n"unterminated'],
      ] as const) {
        const res = await call(method, url, {
          headers: { ...headersFor(path), "content-type": contentType },
          body,
        });
        expect(res.status, `${method} ${url} ${contentType} ${body}`).toBeLessThan(500);
      }
    }
  });

  it("a control character in any query parameter is a 400 naming it", async () => {
    for (const { method, path, query } of operations) {
      for (const { name } of query) {
        const res = await call(method, `${urlOf(path)}?${name}=${encodeURIComponent(CONTROL)}`, {
          headers: headersFor(path),
        });
        expect(res.status, `${method} ${path} ${name}`).toBe(400);
        expect(res.body.errors, `${method} ${path} ${name}`).toEqual([
          `${name}: must not contain control characters`,
        ]);
      }
    }
  });

  it("an undeclared query parameter is a 400 naming it, on every operation (a typo is never ignored)", async () => {
    for (const { method, path } of operations) {
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      const res = await call(method, `${urlOf(path)}?pagesize=5&colour=red`, {
        headers: headersFor(path),
        body,
      });
      expect(res.status, `${method} ${path}`).toBe(400);
      // Besides any required parameter this URL leaves out (a report's from and to).
      expect(res.body.errors, `${method} ${path}`).toEqual(
        expect.arrayContaining(["pagesize: unknown query parameter", "colour: unknown query parameter"]),
      );
    }
  });

  it("control characters in every string of a body are a 400 naming each field", async () => {
    for (const { method, path, body } of operations.filter((o) => o.body)) {
      const leaves: Leaf[] = [];
      let value = sample(body ?? {}, [], leaves);
      const strings = leaves.filter((leaf) => typeOf(leaf.schema) === "string");
      for (const leaf of strings) value = withLeaf(value, leaf.path, CONTROL);
      const res = await call(method, urlOf(path), { headers: headersFor(path), body: value });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.errors, `${method} ${path}`).toEqual(
        strings.map((leaf) => `${fieldName(leaf.path)}: must not contain control characters`),
      );
    }
  });

  it("huge numbers in every number field and query parameter are never a 500", async () => {
    for (const { method, path, query, body } of operations) {
      for (const { name, schema } of query) {
        if (!["integer", "number"].includes(typeOf(resolved(schema ?? {})) ?? "")) continue;
        for (const huge of HUGE) {
          const res = await call(method, `${urlOf(path)}?${name}=${huge}`, { headers: headersFor(path) });
          expect(res.status, `${method} ${path} ${name}=${huge}`).toBeLessThan(500);
        }
      }
      if (!body) continue;
      const leaves: Leaf[] = [];
      const valid = sample(body, [], leaves);
      for (const leaf of leaves.filter((l) => ["integer", "number"].includes(typeOf(l.schema) ?? ""))) {
        for (const huge of HUGE) {
          const res = await call(method, urlOf(path), {
            headers: headersFor(path),
            body: withLeaf(valid, leaf.path, huge),
          });
          const what = `${method} ${path} ${fieldName(leaf.path)}=${huge}`;
          expect(res.status, what).toBeLessThan(500);
          if (res.status >= 400) expect(res.body.success, what).toBe(false);
        }
      }
    }
  });

  it("a value just past a documented maximum is a 400 that states the bound", async () => {
    const unclear: string[] = [];
    for (const { method, path, body } of operations.filter((o) => o.body)) {
      const leaves: Leaf[] = [];
      const valid = sample(body ?? {}, [], leaves);
      for (const { path: at, schema } of leaves) {
        const type = typeOf(schema);
        const free = !schema.format && !schema.enum && !schema.pattern;
        const past =
          type === "string" && free && schema.maxLength !== undefined
            ? { value: "x".repeat(schema.maxLength + 1), bound: schema.maxLength }
            : (type === "integer" || type === "number") && schema.maximum !== undefined
              ? { value: schema.maximum + 1, bound: schema.maximum }
              : undefined;
        if (!past) continue;
        const res = await call(method, urlOf(path), {
          headers: headersFor(path),
          body: withLeaf(valid, at, past.value),
        });
        // An import names the row and the column (`row 1: sku: ...`); elsewhere the field is the whole path.
        const last = at.at(-1);
        const field = typeof last === "string" ? last : fieldName(at);
        const error = (res.body.errors ?? []).find((e: string) => e.includes(`${field}: `));
        if (res.status !== 400 || !new RegExp(`\\b${past.bound}\\b`).test(error ?? "")) {
          unclear.push(`${method} ${path} ${res.status} ${error ?? JSON.stringify(res.body.errors)}`);
        }
      }
    }
    expect(unclear).toEqual([]);
  });

  it("every validation message names its field and says what is wanted, never in zod's default words", async () => {
    const wrongType = (schema: Schema) => {
      const type = typeOf(schema);
      return type === "string" ? 12345 : type === "array" ? "x" : type === "object" ? [] : "x";
    };
    const unclear: string[] = [];
    for (const { method, path, body } of operations.filter((o) => o.body)) {
      const leaves: Leaf[] = [];
      const valid = sample(body ?? {}, [], leaves);
      const mutations = [
        ...leaves.map((leaf) => withLeaf(valid, leaf.path, wrongType(leaf.schema))),
        ...leaves.filter((leaf) => leaf.path.length > 0).map((leaf) => withLeaf(valid, leaf.path, null)),
        [],
      ];
      for (const mutated of mutations) {
        const res = await call(method, urlOf(path), { headers: headersFor(path), body: mutated });
        if (res.status !== 400) continue;
        for (const error of res.body.errors ?? []) {
          // The field first (`body` for the whole body), then the API's words, never zod's.
          const worded = /^(row \d+: )?[\w.[\]]+: \S/.test(error);
          if (!worded || /Invalid|Too (big|small)|expected /.test(error))
            unclear.push(`${method} ${path}: ${error}`);
        }
      }
    }
    expect([...new Set(unclear)]).toEqual([]);
  });

  it("internal hosts, trailing dot and all, in every URL field are a 400", async () => {
    const withUrls = operations.flatMap((operation) => {
      const leaves: Leaf[] = [];
      const valid = operation.body ? sample(operation.body, [], leaves) : undefined;
      const urls = leaves.filter((leaf) => leaf.schema.format === "uri");
      return urls.length > 0 ? [{ ...operation, valid, urls }] : [];
    });
    expect(withUrls.map((o) => `${o.method} ${o.path}`)).toEqual([
      "POST /webhooks",
      "PUT /webhooks/{id}",
      "PUT /settings/carriers/{code}",
    ]);
    for (const { method, path, valid, urls } of withUrls) {
      for (const leaf of urls) {
        for (const host of INTERNAL_HOSTS) {
          const res = await call(method, urlOf(path), {
            headers: headersFor(path),
            body: withLeaf(valid, leaf.path, host),
          });
          expect(res.status, `${method} ${path} ${host}`).toBe(400);
          expect(res.body.errors, `${method} ${path} ${host}`).toEqual([
            `${fieldName(leaf.path)}: must be a public host name`,
          ]);
        }
      }
    }
  });
});
