import { exports } from "cloudflare:workers";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

// Every response the suite receives is checked against the OpenAPI document the Worker serves, so the
// document cannot promise what the API does not do (strict generated clients fail on exactly that).
// ajv compiles validators with `new Function`; the vitest pool's workerd allows it (production need not).

const ORIGIN = "http://localhost";
const DOCUMENT_PATH = "/api/v1/openapi.json";
// The id under which ajv knows the document, so `#/components/...` references resolve inside it.
const DOCUMENT_ID = "https://openapi.test/openapi.json";

/** The JSON Schema keywords tests read from the document's schemas. */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaObject>;
  items?: SchemaObject;
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  allOf?: SchemaObject[];
  enum?: unknown[];
  format?: string;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
}
interface MediaType {
  schema?: SchemaObject;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
  headers?: Record<string, { required?: boolean }>;
}
/** The parts of an operation that tests read. */
export interface DocumentedOperation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: SchemaObject }[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
  "x-required-scopes"?: string[];
}
/** The served document, as far as tests read it; paths are keyed by template, then lower-case method. */
export interface OpenApiDocument {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, DocumentedOperation>>;
  /** OpenAPI 3.1 webhooks: what a receiver gets, keyed by event type, then `post`. */
  webhooks?: Record<string, Record<string, DocumentedOperation>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

interface PathTemplate {
  template: string;
  pattern: RegExp;
  /** The names of the template's parameters, in the order `pattern` captures them. */
  names: string[];
  literalSegments: number;
  operations: Record<string, DocumentedOperation>;
}

/** Answers that are not operations of the API, so the document does not describe them. */
function outsideTheDocument(method: string, pathname: string, request: Request): boolean {
  // CORS preflights are answered by the CORS middleware for every path.
  if (method === "OPTIONS" && request.headers.has("access-control-request-method")) return true;
  // The document itself and its reference page.
  if (pathname === DOCUMENT_PATH || pathname === "/api/v1/docs" || pathname.startsWith("/api/v1/docs/")) {
    return method === "GET" || method === "HEAD";
  }
  // The web application's pages and assets.
  return !pathname.startsWith("/api/v1/");
}

/** JSON pointer token, URI-encoded for use in a `$ref` fragment. */
const pointerToken = (token: string) => encodeURIComponent(token.replace(/~/g, "~0").replace(/\//g, "~1"));

type Schema = Record<string, unknown>;

function eachSchemaObject(node: unknown, visit: (schema: Schema) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) eachSchemaObject(item, visit);
  } else if (node && typeof node === "object") {
    visit(node as Schema);
    for (const value of Object.values(node)) eachSchemaObject(value, visit);
  }
}

/**
 * Objects in the document list their properties; a response that carries one more has a field no typed
 * client can read. So object schemas that do not say otherwise are closed for the check; the parts of an
 * `allOf` stay open and the composition is closed instead, since a closed part would refuse the other
 * parts' properties. A component that is such a part (`Order`, which an order event's data extends) stays
 * open in itself and is closed at every other `$ref` to it (`unevaluatedProperties` beside the `$ref` sees the
 * properties it evaluated), so where the API answers an `Order` one more field still fails.
 */
function closeObjects(document: OpenApiDocument): void {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const parts = new Set<Schema>();
  const openComponents = new Set<string>();
  const componentOf = (schema: Schema) =>
    typeof schema.$ref === "string" ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  eachSchemaObject(document, (schema) => {
    if (!Array.isArray(schema.allOf)) return;
    for (const part of schema.allOf as Schema[]) {
      parts.add(part);
      const name = componentOf(part);
      if (name && components[name]) {
        parts.add(components[name]);
        openComponents.add(name);
      }
    }
  });
  eachSchemaObject(document, (schema) => {
    const name = componentOf(schema);
    if (name && openComponents.has(name) && !parts.has(schema)) schema.unevaluatedProperties = false;
    const object = (schema.type === "object" && schema.properties) || Array.isArray(schema.allOf);
    if (!object || parts.has(schema)) return;
    if ("additionalProperties" in schema || "unevaluatedProperties" in schema) return;
    schema.unevaluatedProperties = false;
  });
}

/** The API's own headers: each one sent must be declared on the response that carries it. */
const API_HEADERS = [
  "X-Request-Id",
  "X-Error-Code",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "Location",
  "Idempotent-Replayed",
  "Consistency-Token",
  "Content-Disposition",
];

/** An API header sent but not declared on the response, or a required one declared but not sent. */
function undocumentedHeaders(response: ResponseObject, headers: Headers): string | undefined {
  const declared = new Map(
    Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), h]),
  );
  const sent = API_HEADERS.filter((name) => headers.has(name) && !declared.has(name.toLowerCase()));
  if (sent.length > 0) return `sends ${sent.join(", ")}, which the document does not declare on it`;
  const missing = [...declared].filter(([name, h]) => h.required && !headers.has(name)).map(([name]) => name);
  if (missing.length > 0) return `lacks ${missing.join(", ")}, which the document declares required`;
  return undefined;
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** A parameter's text as its schema's type, when it reads as one; else the text, which then fails the type. */
function asParameterValue(raw: string, schema: SchemaObject): unknown {
  const types = [schema.type ?? []].flat();
  if ((types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(raw)) {
    return Number(raw);
  }
  if (types.includes("boolean") && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

class DocumentChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly templates: PathTemplate[];
  private readonly webhooks: NonNullable<OpenApiDocument["webhooks"]>;

  constructor(document: OpenApiDocument) {
    this.webhooks = document.webhooks ?? {};
    addFormats(this.ajv);
    closeObjects(document);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.templates = Object.entries(document.paths)
      .map(([template, operations]) => {
        const segments = template.split("/");
        return {
          template,
          operations,
          names: segments.filter((s) => s.startsWith("{")).map((s) => s.slice(1, -1)),
          literalSegments: segments.filter((segment) => !segment.startsWith("{")).length,
          pattern: new RegExp(
            `^${segments.map((s) => (s.startsWith("{") ? "([^/]+)" : s.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))).join("/")}$`,
          ),
        };
      })
      // A literal segment wins over a parameter: /users/invitations before /users/{id}.
      .sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** What is wrong with the answer, or undefined when the document describes it. */
  problem(request: Request, status: number, headers: Headers, body: unknown): string | undefined {
    const contentType = headers.get("content-type");
    const method = request.method.toUpperCase();
    const { pathname } = new URL(request.url);
    if (outsideTheDocument(method, pathname, request)) return undefined;
    const candidates = this.templates.filter((t) => t.pattern.test(pathname));
    const matched = candidates.find((t) => t.operations[method.toLowerCase()]);
    if (!matched) {
      // Not an operation (an unknown path, method or report type): only a client error, in the envelope.
      if (status < 400 || status >= 500) return `${status} for a path and method the document does not list`;
      return this.bodyProblem(`${DOCUMENT_ID}#/components/schemas/ErrorEnvelope`, body);
    }
    const operation = matched.operations[method.toLowerCase()]!;
    const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => operation.responses[k]);
    if (!key) {
      return `status ${status} is not documented for ${method} ${matched.template} (documented: ${Object.keys(operation.responses).join(", ")})`;
    }
    const headerProblem = undocumentedHeaders(operation.responses[key]!, headers);
    if (headerProblem) return `${status} ${headerProblem}`;
    const content = operation.responses[key]!.content;
    if (!content)
      return contentType ? `${status} has a ${contentType} body the document does not declare` : undefined;
    const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
    if (!content[mediaType]) {
      return `${status} answered "${mediaType || "no content type"}"; the document declares ${Object.keys(content).join(", ")}`;
    }
    if (mediaType !== "application/json" || !content[mediaType].schema) return undefined;
    const pointer = [
      "paths",
      matched.template,
      method.toLowerCase(),
      "responses",
      key,
      "content",
      mediaType,
      "schema",
    ]
      .map(pointerToken)
      .join("/");
    return this.bodyProblem(`${DOCUMENT_ID}#/${pointer}`, body);
  }

  /**
   * What the document refuses about this request, or undefined when it accepts it: a path or query parameter,
   * a documented header, or the JSON body against its schema. Parameters arrive as text, so a value is
   * read as the parameter's type first (`page=2` as 2; `page=x` stays text and fails the type).
   */
  requestProblem(request: Request, bodyText: string | undefined): string | undefined {
    const method = request.method.toLowerCase();
    const url = new URL(request.url);
    if (outsideTheDocument(method.toUpperCase(), url.pathname, request)) return undefined;
    const matched = this.templates.find((t) => t.pattern.test(url.pathname) && t.operations[method]);
    if (!matched) return `the document has no operation ${method.toUpperCase()} ${url.pathname}`;
    const operation = matched.operations[method]!;
    const values = matched.pattern.exec(url.pathname)!.slice(1);
    const problems: string[] = [];
    (operation.parameters ?? []).forEach((parameter, index) => {
      const raw =
        parameter.in === "path"
          ? safeDecode(values[matched.names.indexOf(parameter.name)] ?? "")
          : parameter.in === "query"
            ? (url.searchParams.get(parameter.name) ?? undefined)
            : parameter.in === "header"
              ? (request.headers.get(parameter.name) ?? undefined)
              : undefined;
      if (raw === undefined) {
        if (parameter.required) problems.push(`${parameter.in} parameter ${parameter.name} is required`);
        return;
      }
      const pointer = ["paths", matched.template, method, "parameters", String(index), "schema"];
      const problem = this.valueProblem(pointer, asParameterValue(raw, parameter.schema ?? {}));
      if (problem) problems.push(`${parameter.in} parameter ${parameter.name}: ${problem}`);
    });
    // The API refuses a query parameter its operation does not declare (defineRoute's strict query), so the
    // document's list is read as closed too.
    const declaredQuery = new Set(
      (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
    );
    for (const name of new Set(url.searchParams.keys())) {
      if (!declaredQuery.has(name)) problems.push(`query parameter ${name} is not declared`);
    }
    const body = operation.requestBody;
    if (body) {
      const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (!bodyText) {
        // A Content-Type announces a body: sent empty as JSON, it is a malformed one, not an absent one.
        if (mediaType === "application/json") problems.push("the body is not JSON");
        else if (body.required) problems.push("the request body is required");
      } else if (!body.content[mediaType]) {
        problems.push(`the body's type "${mediaType}" is not one of ${Object.keys(body.content).join(", ")}`);
      } else if (mediaType === "application/json") {
        let parsed: unknown;
        try {
          parsed = JSON.parse(bodyText);
        } catch {
          problems.push("the body is not JSON");
        }
        const pointer = ["paths", matched.template, method, "requestBody", "content", mediaType, "schema"];
        const problem = problems.length === 0 ? this.valueProblem(pointer, parsed) : undefined;
        if (problem) problems.push(`the body: ${problem}`);
      }
    }
    return problems.length > 0 ? problems.join("; ") : undefined;
  }

  /**
   * What the document's `webhooks` entry for `type` refuses about a delivery a receiver got: a declared header
   * missing or not matching its schema, or the JSON body against the entry's schema (objects closed).
   */
  webhookProblem(type: string, headers: Record<string, string>, body: string): string | undefined {
    const operation = this.webhooks[type]?.post;
    if (!operation) return `the document has no webhook ${type}`;
    const problems: string[] = [];
    (operation.parameters ?? []).forEach((parameter, index) => {
      const raw = parameter.in === "header" ? headers[parameter.name.toLowerCase()] : undefined;
      if (raw === undefined) {
        if (parameter.required) problems.push(`header ${parameter.name} is required`);
        return;
      }
      const problem = this.valueProblem(
        ["webhooks", type, "post", "parameters", String(index), "schema"],
        raw,
      );
      if (problem) problems.push(`header ${parameter.name}: ${problem}`);
    });
    const mediaType = (headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (!operation.requestBody?.content[mediaType])
      return [...problems, `a body of type "${mediaType}"`].join("; ");
    const pointer = ["webhooks", type, "post", "requestBody", "content", mediaType, "schema"];
    const problem = this.valueProblem(pointer, JSON.parse(body));
    if (problem) problems.push(`the body: ${problem}`);
    return problems.length > 0 ? problems.join("; ") : undefined;
  }

  private valueProblem(pointer: string[], value: unknown): string | undefined {
    const validate = this.ajv.getSchema(`${DOCUMENT_ID}#/${pointer.map(pointerToken).join("/")}`);
    if (!validate) throw new Error(`no schema at ${pointer.join("/")}`);
    if (validate(value)) return undefined;
    return [...new Set((validate.errors ?? []).map((e) => `${e.instancePath || "value"} ${e.message}`))].join(
      ", ",
    );
  }

  private bodyProblem(schemaRef: string, body: unknown): string | undefined {
    const validate = this.ajv.getSchema(schemaRef);
    if (!validate) throw new Error(`no schema at ${schemaRef}`);
    if (validate(body)) return undefined;
    const details = new Set(
      (validate.errors ?? []).map(
        (error) =>
          `body${error.instancePath} ${error.message}` +
          ("unevaluatedProperty" in error.params ? ` (${error.params.unevaluatedProperty})` : ""),
      ),
    );
    return `the body does not match the documented schema:\n  ${[...details].join("\n  ")}\nbody: ${JSON.stringify(body).slice(0, 2000)}`;
  }
}

let served: Promise<string> | undefined;

function documentText(): Promise<string> {
  served ??= exports.default.fetch(new Request(`${ORIGIN}${DOCUMENT_PATH}`)).then(async (response) => {
    if (!response.ok) throw new Error(`GET ${DOCUMENT_PATH} answered ${response.status}`);
    return response.text();
  });
  return served;
}

/** The OpenAPI document the Worker serves, a copy of its own (the checker closes the objects of its copy). */
export async function servedDocument(): Promise<OpenApiDocument> {
  return JSON.parse(await documentText()) as OpenApiDocument;
}

let checker: Promise<DocumentChecker> | undefined;

function documentChecker(): Promise<DocumentChecker> {
  checker ??= servedDocument().then((document) => new DocumentChecker(document));
  return checker;
}

/**
 * What the served OpenAPI document does not describe about this answer: the status for the request's
 * operation, the API's headers on it, the content type for that status, or the JSON body (`body`, parsed;
 * ignored for other types).
 */
export async function documentProblem(
  request: Request,
  response: Response,
  body: unknown,
): Promise<string | undefined> {
  const checker = await documentChecker();
  return checker.problem(request, response.status, response.headers, body);
}

/**
 * What the served document's `webhooks` section does not describe about a delivery a receiver got (its
 * Standard Webhooks headers and its body, by the body's `type`), or undefined when it describes it.
 */
export async function webhookProblem(delivery: {
  headers: Record<string, string>;
  body: string;
}): Promise<string | undefined> {
  const checker = await documentChecker();
  const { type } = JSON.parse(delivery.body) as { type?: string };
  return checker.webhookProblem(String(type), delivery.headers, delivery.body);
}

async function jsonOf(request: Request): Promise<unknown> {
  if (!request.body) return undefined;
  try {
    return JSON.parse(await request.clone().text());
  } catch {
    return undefined;
  }
}

/** What the served document refuses about a request (see `requestProblem`), undefined when it accepts it. */
export async function requestRefusal(request: Request): Promise<string | undefined> {
  const checker = await documentChecker();
  return checker.requestProblem(request, request.body ? await request.clone().text() : undefined);
}

/** A value in a JSON body at an error's field path (`lines[0].name`), or undefined. */
function valueAt(body: unknown, field: string): unknown {
  const keys = field.match(/[^.[\]]+/g) ?? [];
  return keys.reduce<unknown>(
    (node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined),
    body,
  );
}

const blank = (value: unknown) => typeof value === "string" && value.trim() === "";

/**
 * The API's refusals the document cannot state, each with why; `when` narrows a rule to the value sent.
 * Any other validation failure of a request the document accepts means the document is looser than the API.
 */
const BEYOND_THE_DOCUMENT: { rule: RegExp; why: string; when?: (value: unknown) => boolean }[] = [
  {
    rule: /: must not contain control characters$/,
    why: "every string refuses control characters; a pattern on each would bury its real constraints",
  },
  {
    rule: /: (.+ is required|must not be empty)$/,
    when: blank,
    why: "strings are trimmed before their length is checked, so a blank one fails what minLength 1 lets pass",
  },
  {
    rule: /^url: must (use https:\/\/|use port 443|not contain credentials|name a host, not an IP address|be a public host name)/,
    why: "a receiver's URL is checked against the world (public host names, resolved by DNS; http://localhost in development): the document says so in words",
  },
  {
    rule: / is (not )?(serial|lot)-tracked\b| is not in this count$| serial numbers for a quantity of | needs the serial numbers shipped$|: a serial-tracked line ships at most \d+ units /,
    why: "depends on the stored product's tracking and the count's scope",
  },
  {
    rule: /: the order total must be at most /,
    why: "an order's total comes from the stored products' prices",
  },
  {
    rule: /a count holds at most \d+ lines/,
    why: "a count's size is its scope's stock levels and what it already holds",
  },
  {
    rule: /: names a hold another line already uses$/,
    why: "a rule across an array's items (each hold once), which JSON Schema cannot state for one field",
  },
  {
    rule: /: must (not )?be in the future$/,
    why: "depends on the clock",
  },
  {
    rule: /: (is incorrect|.+ already exists)$/,
    why: "depends on stored data (the current password, an existing SKU)",
  },
  {
    rule: /^type: unknown event type /,
    why: "a comma-separated list of names and families (`order.*`): the pattern bounds its characters, the description names the types",
  },
  {
    rule: /^(from|to): must be a date \(YYYY-MM-DD\) or an ISO 8601 date-time with a time zone$/,
    why: "a calendar check (2026-02-30 has the pattern's shape)",
  },
  {
    rule: /: must not contain invisible format characters /,
    why: "like control characters: every identifier and name refuses them",
  },
  {
    rule: /: must not contain an unpaired surrogate \(U\+D[89A-F][0-9A-F]{2}\), which is not a character$|: must not be nested deeper than 32 levels$/,
    why: "like control characters: every string refuses a lone surrogate, and no body is walked deeper than 32 levels",
  },
  {
    rule: /^body: line \d+: is not valid UTF-8$/,
    why: "the document describes text; bytes that are not UTF-8 are no text at all",
  },
  {
    rule: /: must be another location of the same warehouse$| is not in the order's warehouse$|^this scope has \d+ |^newPassword: must differ from the current password$/,
    why: "depends on stored data (a location's warehouse, a count's scope, the current password)",
  },
  {
    rule: / ships at most \d+ serial-tracked units |: must name at most \d+ serial numbers in all: /,
    why: "a sum over every line's serial numbers, which JSON Schema cannot state for one field",
  },
  {
    rule: / is not a valid GTIN-\d+: its check digit should be \d$/,
    why: "a check digit is arithmetic over the other digits: the pattern states the length and the digits",
  },
  {
    rule: /: must be at most \d+ days ahead$/,
    why: "depends on the clock",
  },
  {
    rule: /^after: not a cursor issued by this API/,
    why: "a cursor is opaque: only the API knows which it issued",
  },
  {
    rule: /^to: (must not be before from|the range must be at most \d+ days)$/,
    why: "a rule across two query parameters",
  },
  {
    rule: /: .+ is given more than once$/,
    when: (serials) => Array.isArray(serials) && new Set(serials).size === serials.length,
    why: "serial numbers are trimmed before they are compared: `uniqueItems` compares them as sent",
  },
  {
    rule: /^(lines|levels)\[\d+\]\.(stockLevel: named by line \d+ already|serialNumbers: .+ is named by line \d+ already)$/,
    why: "a rule across an array's items (each stock level and serial once), which JSON Schema cannot state for one field",
  },
  {
    rule: /warehouseCode: location code .+ is used in \d+ warehouses; name the warehouse$/,
    why: "depends on stored data (which warehouses use a location code)",
  },
  {
    rule: /sku: .+ names products of \d+ owners \(merchants\); send productId$/,
    why: "depends on stored data (which merchants use a SKU: SKUs are unique per merchant)",
  },
  {
    rule: /^row \d+: tracking: a stored product's tracking changes one product at a time /,
    why: "depends on stored data (the product's tracking)",
  },
  {
    rule: /^row \d+: merchantId: merchant .+ not found$/,
    why: "depends on stored data (the tenant's merchants)",
  },
  {
    rule: /^lines\[\d+\]\.productId: .+; an order may not mix merchants$/,
    why: "depends on stored data (each product's merchant)",
  },
  {
    rule: /^components\[\d+\]\.productId: .+; a kit and its components belong to one merchant$/,
    why: "depends on stored data (each component's merchant)",
  },
  {
    rule: /^lines: \d+ return lines once kit lines become their components; at most \d+$/,
    why: "depends on stored data (how many components each kit line of the order has)",
  },
  {
    rule: /^options\.to: must be after from$|^options\.types\[\d+\]: must be an event type of the feed, or a family/,
    why: "JSON Schema does not compare two values (`to` after `from`); the event types are named in the description (an enum would rename the replay's in the clients)",
  },
  {
    rule: /^toLocationId: must differ from fromLocationId$/,
    why: "JSON Schema does not compare two fields' values; the field's description says it",
  },
  {
    rule: /^allowedIps\[\d+\]: (?!must be at most)/,
    why: "the address grammars (IPv4, IPv6 and their CIDR forms) are checked by ipaddr.js; a pattern for them would be unreadable",
  },
  {
    rule: /^shard: must be one of /,
    why: "the shards are the deployment's database bindings, not the document's",
  },
  {
    rule: /: (not accepted: the account already has one|is required for a new account)$/,
    why: "depends on whether the invited email already has an account",
  },
  {
    rule: /^refreshToken: is required \(or send X-Session-Cookie: 1 with the session cookie\)$/,
    why: "a rule across the body and a header: the token comes in the body or, with X-Session-Cookie: 1, in the cookie (the description says so)",
  },
  {
    rule: /^trackingNumber: only accepted when the order is shipped$/,
    why: "a rule across fields (the status asked for); generators ignore the if/then that could state it",
  },
  {
    rule: /^trackingNumbers: (package \d+ \(.+\) needs a tracking number|must not name a package twice|carrier .+'s label service assigns the tracking numbers; send none)$/,
    why: "depends on the shipment's stored packages and its carrier's settings, and a rule across an array's items (each package once)",
  },
  {
    rule: /: must have at most 3 decimals$/,
    why: "multipleOf 0.001 is not exact in binary floating point (Ajv refuses 2.675); the description says it",
  },
  {
    rule: /^A tenant can have at most \d+ webhook subscriptions$/,
    why: "depends on how many subscriptions the tenant has",
  },
  {
    rule: /^A tenant can configure at most \d+ carriers$/,
    why: "depends on how many carriers the tenant has configured",
  },
  {
    rule: /quantity: is required \(or packaging and packs, or a packaging's barcode as product\)$/,
    why: "a pick without an amount counts one pack when its scanned code is a packaging's barcode: depends on stored barcodes",
  },
  {
    rule: /packaging: product .+ has no packaging .+$|packs: -?\d+ x .+ units, more than \d+$/,
    why: "depends on the product's stored packagings",
  },
  {
    rule: /^packaging: shows current stock; not available with asOf$|: a kit holds no stock; its availability is per warehouse /,
    why: "a rule across query parameters, or one that depends on whether the product is a kit",
  },
  {
    rule: / is a kit: it never holds stock |: a kit's line cannot (pin a lot|take a hold)$|: a kit needs its components$|: a kit holds no stock, so it has no packagings$|: a kit is not tracked |: only a product of type "kit" has components$|: a kit cannot contain itself$| is a kit; a kit's components are stocked products$/,
    why: "depends on the stored product's type (kit or stocked), or a rule across fields",
  },
  {
    rule: /^rates\[\d+\]: the same rate twice$/,
    why: "a rule across a card's rates (each once)",
  },
  {
    rule: /^merchantId: required \(the merchant billed\)$|^period: must not be a month still to come$/,
    why: "depends on the credential (a merchant's own may leave its merchant out) or on the clock",
  },
  {
    rule: /^(components|packagings)\[\d+\]\.\w+: .+ is named twice$/,
    why: "a rule across an array's items (a code, barcode or component once)",
  },
];

/** Where an error's field is in the body: `row 2: name` of an import is the second item's `name`. */
function fieldOf(error: string): string {
  const [first = "", second = ""] = error.split(": ");
  const row = /^row (\d+)$/.exec(first);
  return row ? `[${Number(row[1]) - 1}].${second}` : first;
}

/** Whether an error is one the document cannot state; the value is read from the body, else the query. */
const explained = (error: string, body: unknown, url: URL) =>
  BEYOND_THE_DOCUMENT.some(({ rule, when }) => {
    if (!rule.test(error)) return false;
    const field = fieldOf(error);
    return !when || when(valueAt(body, field) ?? url.searchParams.get(field) ?? undefined);
  });

/**
 * Where the API and the document disagree about a request: the API accepted (2xx/3xx) what the document
 * refuses, or refused as invalid (400 VALIDATION_FAILED) what it accepts, for a reason the document could
 * state. A deliberately bad request both refuse is agreement.
 */
export async function requestDisagreement(
  request: Request,
  response: Response,
  body: unknown,
): Promise<string | undefined> {
  const refusal = await requestRefusal(request);
  if (refusal && response.status < 400) {
    return `the API answered ${response.status} to a request the document refuses: ${refusal}`;
  }
  if (refusal || response.status !== 400 || response.headers.get("x-error-code") !== "VALIDATION_FAILED") {
    return undefined;
  }
  // A body that is not JSON (a CSV import) is text to the document: its rows are the API's alone to check.
  const contentType = request.headers.get("content-type") ?? "";
  if (request.body && !/^application\/json\b/i.test(contentType)) return undefined;
  const errors = (body as { errors?: string[] } | undefined)?.errors ?? [];
  const sentBody = await jsonOf(request);
  const unexplained = errors.filter((error) => !explained(error, sentBody, new URL(request.url)));
  if (unexplained.length === 0) return undefined;
  return `the API refused as invalid a request the document accepts: ${unexplained.join("; ")}`;
}

/**
 * Throws, failing the test that received the answer, unless the served OpenAPI document describes it and
 * agrees with the API about the request. `sent` is the request as sent (a clone taken before sending it).
 */
export async function assertDocumented(sent: Request, response: Response, body: unknown): Promise<void> {
  const problem =
    (await documentProblem(sent, response, body)) ?? (await requestDisagreement(sent, response, body));
  if (problem) {
    throw new Error(`${sent.method} ${sent.url} does not match the OpenAPI document: ${problem}`);
  }
}
