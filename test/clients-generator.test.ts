import { describe, expect, it } from "vitest";
import { iteratorName, snakeCase } from "../scripts/clients/names.ts";
import { buildOperationTable, type Naming } from "../scripts/clients/operation-table.ts";
import { csharpName, renderDotnet } from "../scripts/clients/render-dotnet.ts";
import { renderDotnetModels } from "../scripts/clients/render-dotnet-models.ts";
import { renderPhp } from "../scripts/clients/render-php.ts";
import { renderPhpModels } from "../scripts/clients/render-php-models.ts";
import { pythonName, renderPython } from "../scripts/clients/render-python.ts";
import { renderPythonModels } from "../scripts/clients/render-python-models.ts";
import { renderTypeScript } from "../scripts/clients/render-typescript.ts";

// The client generator (scripts/generate-clients.ts) on a small document that has one of each kind of
// operation the clients must tell apart.
const errorResponse = { description: "error" };
const tenant = (scope: string) => ({
  security: [{ BearerAuth: [scope] }, { ApiKeyAuth: [scope] }],
  "x-required-scopes": [scope],
});
const envelope = (data: object) => ({
  content: { "application/json": { schema: { type: "object", properties: { data } } } },
});
const keyHeader = { name: "Idempotency-Key", in: "header", schema: { type: "string" } };
const tenantHeader = { name: "X-Tenant-Id", in: "header", schema: { type: "string" } };

const document = {
  openapi: "3.1.0",
  paths: {
    "/api/v1/things": {
      get: {
        operationId: "listThings",
        ...tenant("read:things"),
        parameters: [
          tenantHeader,
          { name: "page", in: "query", schema: { type: "integer" } },
          { name: "from", in: "query", required: true, schema: { type: "string" } },
          { name: "format", in: "query", schema: { type: "string", enum: ["json", "csv"] } },
        ],
        responses: {
          200: {
            content: {
              ...envelope({ type: "object", properties: { items: { type: "array" }, totalPages: {} } })
                .content,
              "text/csv": { schema: { type: "string" } },
            },
          },
          400: errorResponse,
        },
      },
      post: {
        operationId: "createThing",
        ...tenant("write:things"),
        parameters: [tenantHeader, keyHeader],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/NewThing" } } },
        },
        responses: { 201: envelope({ $ref: "#/components/schemas/NewThing" }) },
      },
    },
    "/api/v1/things/{id}": {
      patch: {
        operationId: "patchThing",
        ...tenant("write:things"),
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string" } },
          { name: "if-match", in: "header", schema: { type: "string" } },
        ],
        requestBody: { content: { "application/json": { schema: { type: "array" } }, "text/csv": {} } },
        responses: { 200: envelope({ type: "object" }) },
      },
    },
    "/api/v1/feed": {
      get: {
        operationId: "readFeed",
        ...tenant("read:things"),
        parameters: [
          { name: "after", in: "query", schema: { type: "string" } },
          { name: "limit", in: "query", schema: { type: "integer" } },
        ],
        responses: {
          200: envelope({
            type: "object",
            properties: {
              items: { type: "array" },
              nextCursor: { type: "string" },
              hasMore: { type: "boolean" },
            },
          }),
        },
      },
    },
    "/api/v1/login": {
      post: {
        operationId: "login",
        security: [],
        requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        responses: { 200: envelope({ type: "object" }) },
      },
    },
  },
  components: {
    schemas: {
      NewThing: {
        type: "object",
        properties: {
          name: { type: "string" },
          size: { type: ["integer", "null"] },
          kind: { type: "string", enum: ["small", "large"] },
          when: {
            anyOf: [
              { type: "string", format: "date" },
              { type: "string", format: "date-time" },
            ],
          },
        },
        required: ["name"],
      },
    },
  },
};

const naming: Naming = {
  operations: {
    listThings: "things.list",
    createThing: "things.create",
    patchThing: "things.patch",
    readFeed: "feed.list",
    login: "auth.login",
  },
  omit: {},
};

describe("client operation table", () => {
  const table = buildOperationTable(document, naming);
  const byId = Object.fromEntries(table.operations.map((operation) => [operation.operationId, operation]));

  it("names each operation and keeps the document's order", () => {
    expect(table.operations.map((o) => `${o.operationId}=${o.group}.${o.method}`)).toEqual([
      "listThings=things.list",
      "createThing=things.create",
      "patchThing=things.patch",
      "readFeed=feed.list",
      "login=auth.login",
    ]);
  });

  it("retries only what is safe to repeat", () => {
    expect(byId.listThings?.retry).toBe("safe");
    expect(byId.createThing?.retry).toBe("idempotency-key");
    // No Idempotency-Key: a refresh or a PATCH repeated after a lost answer could act twice.
    expect(byId.patchThing?.retry).toBe("refused-only");
    expect(byId.login?.retry).toBe("refused-only");
  });

  it("retries a PATCH that takes an Idempotency-Key, as the server de-duplicates it like a POST", () => {
    const keyed = structuredClone(document);
    keyed.paths["/api/v1/things/{id}"].patch.parameters.push(keyHeader);
    const patch = buildOperationTable(keyed, naming).operations.find((o) => o.operationId === "patchThing");
    expect(patch?.retry).toBe("idempotency-key");
  });

  it("knows who may call", () => {
    expect(byId.listThings?.access).toBe("tenant");
    expect(byId.login?.access).toBe("public");
  });

  it("finds pages, cursor pages and CSV downloads", () => {
    expect(byId.listThings).toMatchObject({ paged: true, cursor: false, csv: true });
    expect(byId.createThing).toMatchObject({ paged: false, cursor: false, csv: false });
    expect(byId.readFeed).toMatchObject({ paged: false, cursor: true, csv: false });
  });

  it("reduces parameters and body fields to the types a signature states", () => {
    expect(byId.listThings?.query.map((q) => `${q.name}:${q.type}${q.required ? "!" : ""}`)).toEqual([
      "page:integer",
      "from:string!",
      "format:string",
    ]);
    expect(byId.listThings?.headers).toEqual([]);
    expect(byId.patchThing?.headers.map((h) => h.name)).toEqual(["if-match"]);
    expect(byId.patchThing?.pathParams).toEqual(["id"]);
    expect(byId.patchThing?.body).toMatchObject({ shape: "array", csv: true, required: false });
    expect(byId.createThing?.body?.fields).toEqual([
      { name: "name", type: "string", required: true, nullable: false },
      { name: "size", type: "integer", required: false, nullable: true },
      { name: "kind", type: "string", required: false, nullable: false, enum: ["small", "large"] },
      { name: "when", type: "string", required: false, nullable: false },
    ]);
  });

  it("refuses an operation without a name, two operations with one name, and names of gone operations", () => {
    const { login: _login, ...unnamed } = naming.operations;
    expect(() => buildOperationTable(document, { operations: unnamed, omit: {} })).toThrow(
      /operation login has no client name: add "login": "<group>.<method>" to clients\/naming.json/,
    );
    expect(() =>
      buildOperationTable(document, { operations: { ...naming.operations, login: "things.list" }, omit: {} }),
    ).toThrow(/login and listThings are both named things.list/);
    expect(() =>
      buildOperationTable(document, { operations: { ...naming.operations, gone: "x.y" }, omit: {} }),
    ).toThrow(/no longer has: gone/);
  });

  it("leaves out the operations listed under omit", () => {
    const { login: _login, ...named } = naming.operations;
    const omitted = buildOperationTable(document, { operations: named, omit: { login: "not for clients" } });
    expect(omitted.operations.map((o) => o.operationId)).not.toContain("login");
  });
});

describe("client names", () => {
  it("spells names per language", () => {
    expect(snakeCase("listDeliveries")).toBe("list_deliveries");
    expect(snakeCase("apiKeys")).toBe("api_keys");
    expect(iteratorName("list", "all")).toBe("listAll");
    expect(iteratorName("list", "iterate")).toBe("iterate");
    expect(iteratorName("listStock", "iterate")).toBe("iterateStock");
    expect(iteratorName("lowStock", "iterate")).toBe("iterateLowStock");
  });
});

describe("TypeScript rendering", () => {
  const source = renderTypeScript(buildOperationTable(document, naming));

  it("calls openapi-fetch with the literal path and the operation's retry class", () => {
    expect(source).toContain(
      'createThing: { operationId: "createThing", access: "tenant", retry: "idempotency-key" },',
    );
    expect(source).toContain('t.api.POST("/api/v1/things", { ...init, body })');
    expect(source).toContain('t.api.PATCH("/api/v1/things/{id}", { ...init, params: { path: { id } }, body');
  });

  it("adds the iterator, the CSV download and the header parameters", () => {
    expect(source).toContain(
      "return { list: listThings, listAll: listThingsAll, listCsv: listThingsCsv, create: createThing, patch: patchThing };",
    );
    expect(source).toContain('parseAs: "text"');
    expect(source).toContain("options?: CallOptions & { ifMatch?: string }");
    expect(source).toContain('"if-match": options?.ifMatch');
  });

  it("follows a cursor-paged operation with a CursorFeed starting at query.after", () => {
    expect(source).toContain('import { CursorFeed } from "../feed.js";');
    expect(source).toContain(
      'new CursorFeed((after) => readFeed({ ...query, after } as QueryOf<"readFeed">, options), query?.after)',
    );
    expect(source).toContain("return { list: readFeed, listAll: readFeedAll };");
  });
});

describe("Python rendering", () => {
  const source = renderPython(buildOperationTable(document, naming));

  it("spells arguments in snake_case and escapes keywords", () => {
    expect(pythonName("pageSize")).toBe("page_size");
    expect(pythonName("if-match")).toBe("if_match");
    expect(pythonName("from")).toBe("from_");
    expect(pythonName("import")).toBe("import_");
  });

  it("takes body fields as typed keyword arguments, leaving out what is not passed", () => {
    expect(source).toContain("        name: str,\n");
    expect(source).toContain("        size: Optional[int] = UNSET,\n");
    expect(source).toContain('        kind: Optional[Literal["small", "large"]] = UNSET,\n');
    expect(source).toContain('body={"name": name, "size": size, "kind": kind, "when": when},');
    expect(source).toContain("idempotency_key=idempotency_key,");
  });

  it("adds the iterator, the CSV download and the header parameters", () => {
    expect(source).toContain("    def iterate(\n");
    expect(source).toContain(
      "return self._t.iterate(lambda page: self.list(page=page, from_=from_, format=format, timeout=timeout))",
    );
    expect(source).toContain("    def list_csv(\n");
    expect(source).toContain('query={"page": page, "from": from_, "format": "csv"},');
    expect(source).toContain('headers={"if-match": if_match},');
    expect(source).toContain("        body: Optional[Union[List[Any], str]] = None,\n");
  });

  it("follows a cursor-paged operation with a CursorFeed starting at after", () => {
    expect(source).toContain("    def iterate(");
    expect(source).toContain(
      "lambda position: self.list(after=UNSET if position is None else position, limit=limit, timeout=timeout)",
    );
    expect(source).toContain("None if after is UNSET else after,");
  });
});

describe("PHP rendering", () => {
  const files = renderPhp(buildOperationTable(document, naming));
  const things = files.get("clients/php/src/Resources/ThingsResource.php") ?? "";

  it("writes one class per group, the operation metadata and the base class", () => {
    expect([...files.keys()].sort()).toEqual([
      "clients/php/src/Resources/AuthResource.php",
      "clients/php/src/Resources/FeedResource.php",
      "clients/php/src/Resources/Operations.php",
      "clients/php/src/Resources/Resources.php",
      "clients/php/src/Resources/ThingsResource.php",
    ]);
    expect(files.get("clients/php/src/Resources/Operations.php")).toContain(
      "'createThing' => ['POST', '/api/v1/things', 'tenant', 'idempotency-key'],",
    );
    expect(files.get("clients/php/src/Resources/Resources.php")).toContain(
      "public readonly ThingsResource $things;",
    );
  });

  it("documents the body's array shape, returns the record class and passes the options", () => {
    expect(things).toContain(
      "@param array{name: string, size?: int|null, kind?: 'small'|'large', when?: string} $body",
    );
    expect(things).toContain("use Warehouse\\Api\\Generated\\NewThing;");
    expect(things).toContain(
      "@param array{idempotency_key?: string, timeout?: float} $options\n     * @return NewThing",
    );
    expect(things).toContain("public function create(array $body, array $options = []): NewThing");
    expect(things).toContain("return NewThing::fromArray($this->transport->call('createThing'");
    expect(things).toContain("public function list(array $query, array $options = []): Page");
    expect(things).toContain(
      "public function patch(string $id, array|string $body = [], array $options = []): mixed",
    );
    expect(things).toContain("headers: ['if-match' => $options['if_match'] ?? null]");
  });

  it("adds the iterator and the CSV download", () => {
    expect(things).toContain("public function iterate(array $query, array $options = []): \\Generator");
    expect(things).toContain("$this->list(['page' => $page] + $query, $options)");
    expect(things).toContain("public function listCsv(array $query, array $options = []): string");
    expect(things).toContain("query: ['format' => 'csv'] + $query");
  });

  it("follows a cursor-paged operation with a CursorFeed starting at $query['after']", () => {
    const feed = files.get("clients/php/src/Resources/FeedResource.php") ?? "";
    expect(feed).toContain("use Warehouse\\Api\\CursorFeed;");
    expect(feed).toContain("public function iterate(array $query = [], array $options = []): CursorFeed");
    expect(feed).toContain(
      "new CursorFeed(fn (?string $after): object => $this->list(['after' => $after] + $query, $options), $query['after'] ?? null)",
    );
  });
});

describe("C# rendering", () => {
  const source = renderDotnet(buildOperationTable(document, naming));

  it("escapes keywords and spells header parameters in camelCase", () => {
    expect(csharpName("pageSize")).toBe("pageSize");
    expect(csharpName("if-match")).toBe("ifMatch");
    expect(csharpName("params")).toBe("@params");
  });

  it("types the query, the body and the answer, and passes the operation's metadata", () => {
    expect(source).toContain(
      'internal static readonly Operation CreateThing = new Operation("createThing", "POST", "/api/v1/things", "tenant", "idempotency-key");',
    );
    expect(source).toContain(
      "public async Task<Models.NewThing> CreateAsync(Models.NewThing body, string idempotencyKey = null, CancellationToken cancellationToken = default(CancellationToken))",
    );
    expect(source).toContain("return Models.NewThing.FromJson(data as JsonObject);");
    // A body that is not one model (JSON rows or CSV text) stays an object.
    expect(source).toContain(
      "public Task<object> PatchAsync(string id, object body = null, string ifMatch = null,",
    );
    // Required query parameters come first, without a default.
    expect(source).toContain(
      "public Task<ResultPage<object>> ListAsync(string from, int? page = null, string format = null, CancellationToken",
    );
    expect(source).toContain('new Dictionary<string, string> { { "if-match", ifMatch } }');
  });

  it("adds the iterator, the CSV download and the client's properties", () => {
    expect(source).toContain(
      "public PageIterator<object> ListAllAsync(string from, string format = null, CancellationToken",
    );
    expect(source).toContain(
      "return new PageIterator<object>(nextPage => ListAsync(page: nextPage, from: from, format: format,",
    );
    expect(source).toContain(
      "public Task<string> ListCsvAsync(string from, int? page = null, CancellationToken",
    );
    expect(source).toContain('{ "format", "csv" }');
    expect(source).toContain("public ThingsResource Things { get; private set; }");
  });

  it("follows a cursor-paged operation with a CursorFeed starting at after", () => {
    expect(source).toContain(
      "public CursorFeed<object> ListAllAsync(string after = null, int? limit = null, CancellationToken",
    );
    expect(source).toContain(
      'return new CursorFeed<object>(async position => await _transport.DataAsync(Operations.ReadFeed, new string[0], new Dictionary<string, object> { { "after", position }, { "limit", limit } }, null, null, null, cancellationToken).ConfigureAwait(false) as JsonObject, v => v, after);',
    );
  });
});

// The typed models: every schema reduces, whatever the document's oneOf, allOf, enums and maps.
describe("models", () => {
  const schemas = {
    Status: { type: "string", enum: ["open", "in-review", "closed"] },
    Base: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    Detail: {
      allOf: [
        { $ref: "#/components/schemas/Base" },
        { type: "object", properties: { note: { type: ["string", "null"] } }, required: ["note"] },
      ],
    },
    Event: {
      type: "object",
      properties: {
        type: { type: "string", enum: ["a.created", "b.deleted"] },
        data: {
          oneOf: [
            {
              type: "object",
              properties: { kind: { type: "string", enum: ["a"] }, size: { type: "integer" } },
              required: ["kind", "size"],
            },
            {
              type: "object",
              properties: { kind: { type: "string", enum: ["b"] }, reason: { type: "string" } },
              required: ["kind"],
            },
          ],
          discriminator: { propertyName: "kind" },
        },
        status: { anyOf: [{ $ref: "#/components/schemas/Status" }, { type: "null" }] },
        roles: { type: "array", items: { type: "string", enum: ["owner", "viewer"] } },
        tags: { type: "object", additionalProperties: { type: "integer" } },
        either: { oneOf: [{ type: "string" }, { type: "integer" }] },
      },
      required: ["type", "data"],
    },
  };
  const table = buildOperationTable({ paths: {}, components: { schemas } }, { operations: {}, omit: {} });
  const model = (name: string) => table.models.find((m) => m.name === name);

  it("merges allOf parts, and a oneOf's variants into one model whose fields only all variants require", () => {
    expect(model("Detail")?.fields).toEqual([
      { name: "id", type: { kind: "string" }, required: true, nullable: false },
      { name: "note", type: { kind: "string" }, required: true, nullable: true },
    ]);
    expect(model("EventData")?.fields.map((f) => `${f.name}:${f.type.kind}${f.required ? "!" : ""}`)).toEqual(
      ["kind:string!", "size:integer", "reason:string"],
    );
  });

  it("types enums, nullable references, lists, maps and mixed unions", () => {
    expect(table.enums).toEqual([
      { name: "EventType", values: ["a.created", "b.deleted"] },
      { name: "Role", values: ["owner", "viewer"] },
      { name: "Status", values: ["open", "in-review", "closed"] },
    ]);
    const fields = Object.fromEntries((model("Event")?.fields ?? []).map((f) => [f.name, f]));
    expect(fields.status).toMatchObject({ type: { kind: "enum", name: "Status" }, nullable: true });
    expect(fields.roles?.type).toEqual({ kind: "array", items: { kind: "enum", name: "Role" } });
    expect(fields.tags?.type).toEqual({ kind: "map", values: { kind: "integer" } });
    expect(fields.either?.type).toEqual({ kind: "any" });
  });

  it("drops keywords that only state a rule across an object's fields: the model is the object's fields", () => {
    const ruled = buildOperationTable(
      {
        paths: {},
        components: {
          schemas: {
            Amount: {
              type: "object",
              properties: {
                quantity: { type: "integer" },
                packaging: { type: "string" },
                packs: { type: "integer" },
                line: {
                  type: "object",
                  properties: { sku: { type: "string" }, productId: { type: "string" } },
                  allOf: [
                    { oneOf: [{ required: ["sku"] }, { required: ["productId"] }] },
                    { not: { required: ["sku"], properties: { sku: { const: "x" } } } },
                  ],
                },
              },
              required: ["line"],
              oneOf: [{ required: ["quantity"] }, { required: ["packaging", "packs"] }],
              dependentRequired: { packaging: ["packs"], packs: ["packaging"] },
            },
          },
        },
      },
      { operations: {}, omit: {} },
    );
    const fields = (name: string) =>
      ruled.models
        .find((m) => m.name === name)
        ?.fields.map((f) => `${f.name}:${f.type.kind}${f.required ? "!" : ""}`);
    expect(fields("Amount")).toEqual([
      "quantity:integer",
      "packaging:string",
      "packs:integer",
      "line:model!",
    ]);
    expect(fields("AmountLine")).toEqual(["sku:string", "productId:string"]);
  });

  it("derives a model extending another (allOf of its $ref and fields) from it in C# and PHP", () => {
    expect(model("Detail")?.base).toBe("Base");
    const csharp = renderDotnetModels(table);
    expect(csharp).toContain("public class Base : IJsonModel");
    expect(csharp).toContain("public virtual JsonObject ToJson()");
    expect(csharp).toContain("public sealed class Detail : Base");
    expect(csharp).toContain("public static new Detail FromJson(JsonObject json)");
    const php = renderPhpModels(table);
    expect(php.get("clients/php/src/Generated/Base.php")).toContain("\nclass Base extends Model");
    expect(php.get("clients/php/src/Generated/Detail.php")).toContain("final class Detail extends Base");
    expect(php.get("clients/php/src/Generated/Detail.php")).not.toContain("$id");
  });

  it("renders Python dataclasses, C# classes and PHP classes that keep what they do not know", () => {
    const python = renderPythonModels(table);
    expect(python).toContain('class Status(str, Enum):\n    OPEN = "open"\n    IN_REVIEW = "in-review"');
    // Detail extends Base (allOf of its $ref and a field): a subclass declaring only its own field.
    expect(python).toContain("class Detail(Base):\n    note: Optional[str] = None\n");
    expect(python).toContain('            data=_m.model(EventData)(data.get("data")),');
    expect(python).toContain('            roles=_m.list_of(_m.enum(Role))(data.get("roles")),');
    expect(python).toContain("            extra_fields=_m.extra(data, cls._wire),");
    const csharp = renderDotnetModels(table);
    expect(csharp).toContain(
      'Unknown = 0,\n        [WireName("open")] Open,\n        [WireName("in-review")] InReview,',
    );
    expect(csharp).toContain("public IList<Role> Roles { get; set; }");
    expect(csharp).toContain("public long? Size { get; set; }");
    expect(csharp).toContain(
      'model.Status = ModelJson.ReadEnum<Status>(json, "status", model.AdditionalProperties);',
    );
    expect(csharp).toContain("ModelJson.KeepUnknown(json, model.AdditionalProperties, Known);");
    const php = renderPhpModels(table);
    const event = php.get("clients/php/src/Generated/Event.php");
    expect(event).toContain("final class Event extends Model");
    expect(event).toContain("    public readonly ?EventType $type;");
    expect(event).toContain("        $this->data = EventData::fromArray($data['data']);");
    expect(event).toContain(
      "        $this->status = isset($data['status']) ? Status::tryFrom($data['status']) : null;",
    );
    expect(event).toContain(
      "    /** @var list<Role|null>|null `roles (optional)` */\n    public readonly ?array $roles;",
    );
    expect(event).toContain("    public readonly mixed $either;");
    expect(php.get("clients/php/src/Generated/Status.php")).toContain("case InReview = 'in-review';");
  });
});

// Events: a oneOf of named schemas with a discriminator is a tagged union in every client; the webhooks too.
describe("tagged unions", () => {
  const variant = (tag: string, data: object) => ({
    type: "object",
    properties: { id: { type: "string" }, type: { type: "string", enum: [tag] }, data },
    required: ["id", "type", "data"],
  });
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const schemas = {
    Order: { type: "object", properties: { number: { type: "string" } }, required: ["number"] },
    OrderCreatedEvent: variant("order.created", ref("Order")),
    PingEvent: variant("ping", { type: "object", properties: { at: { type: "string" } } }),
    Event: {
      oneOf: [ref("OrderCreatedEvent"), ref("PingEvent")],
      discriminator: { propertyName: "type" },
    },
    Feed: { type: "object", properties: { items: { type: "array", items: ref("Event") } } },
    OrderCreatedBody: variant("order.created", ref("Order")),
  };
  const body = (name: string) => ({
    post: { requestBody: { content: { "application/json": { schema: ref(name) } } } },
  });
  const table = buildOperationTable(
    { paths: {}, components: { schemas }, webhooks: { "order.created": body("OrderCreatedBody") } },
    { operations: {}, omit: {} },
  );

  it("keeps each variant's model, names its tag and merges the variants into a fallback for unknown tags", () => {
    expect(table.unions).toEqual([
      {
        name: "Event",
        discriminator: "type",
        variants: [
          { tag: "order.created", model: "OrderCreatedEvent" },
          { tag: "ping", model: "PingEvent" },
        ],
        fallback: "UnknownEvent",
        common: ["id", "type"],
      },
      {
        name: "WebhookEvent",
        discriminator: "type",
        variants: [{ tag: "order.created", model: "OrderCreatedBody" }],
        fallback: "UnknownWebhookEvent",
        common: ["id", "type", "data"],
      },
    ]);
    const feed = table.models.find((m) => m.name === "Feed");
    expect(feed?.fields[0]?.type).toEqual({ kind: "array", items: { kind: "union", name: "Event" } });
    const created = table.models.find((m) => m.name === "OrderCreatedEvent")?.fields;
    expect(created?.find((f) => f.name === "type")).toMatchObject({ literal: "order.created" });
    expect(created?.find((f) => f.name === "data")?.type).toEqual({ kind: "model", name: "Order" });
    const unknown = table.models.find((m) => m.name === "UnknownEvent")?.fields;
    expect(unknown?.find((f) => f.name === "type")).toEqual({
      name: "type",
      type: { kind: "string" },
      required: true,
      nullable: false,
    });
    expect(unknown?.find((f) => f.name === "data")?.type).toEqual({ kind: "any" });
  });

  it("renders a Python Union with its parser and a C# and PHP base class per union", () => {
    const python = renderPythonModels(table);
    expect(python).toContain('    type: Literal["order.created"]\n');
    expect(python).toContain("Event = Union[OrderCreatedEvent, PingEvent, UnknownEvent]");
    expect(python).toContain('            items=_m.list_of(parse_event)(data.get("items")),');
    expect(python).toContain('    return _m.variant(data, "type", _EVENT_VARIANTS, UnknownEvent)');
    const csharp = renderDotnetModels(table);
    expect(csharp).toContain("public abstract class Event : IJsonModel");
    expect(csharp).toContain('                case "ping": return PingEvent.FromJson(json);');
    expect(csharp).toContain("                default: return UnknownEvent.FromJson(json);");
    expect(csharp).toContain("public sealed class OrderCreatedEvent : Event");
    expect(csharp).toContain("public static new OrderCreatedEvent FromJson(JsonObject json)");
    expect(csharp).toContain("public override JsonObject ToJson()");
    expect(csharp).toContain("public IList<Event> Items { get; set; }");
    const php = renderPhpModels(table);
    expect(php.get("clients/php/src/Generated/Event.php")).toContain("abstract class Event extends Model");
    expect(php.get("clients/php/src/Generated/Event.php")).toContain("        'ping' => PingEvent::class,");
    expect(php.get("clients/php/src/Generated/Event.php")).toContain(
      "$class = self::VARIANTS[$data['type'] ?? ''] ?? UnknownEvent::class;",
    );
    expect(php.get("clients/php/src/Generated/OrderCreatedEvent.php")).toContain(
      "final class OrderCreatedEvent extends Event",
    );
  });

  it("refuses a variant of two unions, whose C# class could not derive from both", () => {
    expect(() =>
      buildOperationTable(
        {
          paths: {},
          components: { schemas },
          webhooks: { "order.created": body("OrderCreatedEvent") },
        },
        { operations: {}, omit: {} },
      ),
    ).toThrow("OrderCreatedEvent is a variant of both Event and WebhookEvent");
  });
});

describe("references to a component that allows null", () => {
  it("make the referring field nullable, so a strictly typed client accepts the null the server sends", () => {
    const schemas = {
      Weight: { type: ["object", "null"], properties: { value: { type: "number" } } },
      Parcel: {
        type: "object",
        properties: { weight: { $ref: "#/components/schemas/Weight" } },
        required: ["weight"],
      },
    };
    const table = buildOperationTable({ paths: {}, components: { schemas } }, { operations: {}, omit: {} });
    expect(table.models.find((m) => m.name === "Parcel")?.fields).toEqual([
      { name: "weight", type: { kind: "model", name: "Weight" }, required: true, nullable: true },
    ]);
    expect(renderPhpModels(table).get("clients/php/src/Generated/Parcel.php")).toContain(
      "$this->weight = isset($data['weight']) ? Weight::fromArray($data['weight']) : null;",
    );
  });
});
