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
  headers?: Record<string, object>;
}
/** The parts of an operation that tests read. */
export interface DocumentedOperation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: SchemaObject }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
  "x-required-scopes"?: string[];
}
/** The served document, as far as tests read it; paths are keyed by template, then lower-case method. */
export interface OpenApiDocument {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, DocumentedOperation>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

interface PathTemplate {
  template: string;
  pattern: RegExp;
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
 * parts' properties.
 */
function closeObjects(document: OpenApiDocument): void {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const parts = new Set<Schema>();
  eachSchemaObject(document, (schema) => {
    if (!Array.isArray(schema.allOf)) return;
    for (const part of schema.allOf as Schema[]) {
      parts.add(part);
      const ref = typeof part.$ref === "string" ? /^#\/components\/schemas\/(.+)$/.exec(part.$ref) : null;
      if (ref && components[ref[1]!]) parts.add(components[ref[1]!]!);
    }
  });
  eachSchemaObject(document, (schema) => {
    const object = (schema.type === "object" && schema.properties) || Array.isArray(schema.allOf);
    if (!object || parts.has(schema)) return;
    if ("additionalProperties" in schema || "unevaluatedProperties" in schema) return;
    schema.unevaluatedProperties = false;
  });
}

class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly templates: PathTemplate[];

  constructor(document: OpenApiDocument) {
    addFormats(this.ajv);
    closeObjects(document);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.templates = Object.entries(document.paths)
      .map(([template, operations]) => {
        const segments = template.split("/");
        return {
          template,
          operations,
          literalSegments: segments.filter((segment) => !segment.startsWith("{")).length,
          pattern: new RegExp(
            `^${segments.map((s) => (s.startsWith("{") ? "[^/]+" : s.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))).join("/")}$`,
          ),
        };
      })
      // A literal segment wins over a parameter: /users/invitations before /users/{id}.
      .sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** What is wrong with the answer, or undefined when the document describes it. */
  problem(request: Request, status: number, contentType: string | null, body: unknown): string | undefined {
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

let checker: Promise<ResponseChecker> | undefined;

function responseChecker(): Promise<ResponseChecker> {
  checker ??= servedDocument().then((document) => new ResponseChecker(document));
  return checker;
}

/**
 * What the served OpenAPI document does not describe about this answer: the status for the request's
 * operation, the content type for that status, or the JSON body (`body`, parsed; ignored for other types).
 */
export async function documentProblem(
  request: Request,
  response: Response,
  body: unknown,
): Promise<string | undefined> {
  const checker = await responseChecker();
  return checker.problem(request, response.status, response.headers.get("content-type"), body);
}

/** Throws, failing the test that received the answer, unless the served OpenAPI document describes it. */
export async function assertDocumented(request: Request, response: Response, body: unknown): Promise<void> {
  const problem = await documentProblem(request, response, body);
  if (problem) {
    throw new Error(`${request.method} ${request.url} does not match the OpenAPI document: ${problem}`);
  }
}
