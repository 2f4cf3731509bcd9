// Renders clients/typescript/src/generated/operations.ts: one function per resource group whose methods
// call openapi-fetch with the literal path, so the compiler checks every call against the generated types.
import { csvName, GENERATED_NOTICE, groupsOf, headerOption, iteratorName } from "./names.ts";
import type { Operation, OperationTable } from "./operation-table.ts";

const quote = JSON.stringify;

function signature(op: Operation, queryType: string, queryOptional: boolean): string[] {
  const args = op.pathParams.map((name) => `${name}: string`);
  if (op.body) {
    const type = op.body.csv
      ? `BodyOf<${quote(op.operationId)}> | string`
      : `BodyOf<${quote(op.operationId)}>`;
    args.push(`body${op.body.required ? "" : "?"}: ${type}`);
  }
  if (op.query.length > 0) args.push(`query${queryOptional ? "?" : ""}: ${queryType}`);
  const headerOptions = op.headers.map((h) => `${headerOption(h.name)}?: string`).join("; ");
  args.push(`options?: CallOptions${headerOptions ? ` & { ${headerOptions} }` : ""}`);
  return args;
}

function init(op: Operation, query: string | null, extra: string[] = []): string {
  const params: string[] = [];
  if (op.pathParams.length > 0) params.push(`path: { ${op.pathParams.join(", ")} }`);
  if (query !== null) params.push(`query: ${query}`);
  const parts = ["...init", ...(params.length > 0 ? [`params: { ${params.join(", ")} }`] : [])];
  if (op.body) parts.push("body");
  if (op.body?.csv) parts.push("bodySerializer: jsonOrText");
  return `{ ${[...parts, ...extra].join(", ")} }`;
}

function callOptions(op: Operation): string {
  const headers = op.headers.map((h) => `${quote(h.name)}: options?.${headerOption(h.name)}`);
  if (op.download) headers.push(`Accept: ${quote(op.download.join(", "))}`);
  if (op.body?.csv)
    headers.push(`"Content-Type": typeof body === "string" ? "text/csv" : "application/json"`);
  return headers.length > 0 ? `{ ...options, headers: { ${headers.join(", ")} } }` : "options";
}

function renderOperation(op: Operation): string[] {
  const id = quote(op.operationId);
  const queryOptional = !op.query.some((q) => q.required);
  const query = op.query.length > 0 ? "query" : null;
  if (op.download) {
    // A file, not the envelope: read as bytes (openapi-fetch would parse it as JSON).
    return [
      `  /** \`${op.httpMethod} ${op.path}\` (${op.operationId}): the file's bytes (${op.download.join(" or ")}). */`,
      `  const ${op.operationId} = (${signature(op, `QueryOf<${id}>`, queryOptional).join(", ")}): Promise<Uint8Array> =>`,
      `    t.call(OPERATIONS.${op.operationId}, ${callOptions(op)}, (init) =>`,
      `      t.api.${op.httpMethod}(${quote(op.path)}, ${init(op, query, ['parseAs: "arrayBuffer"'])}),`,
      "    ).then((bytes) => new Uint8Array(bytes as ArrayBuffer));",
    ];
  }
  const lines = [
    `  /** \`${op.httpMethod} ${op.path}\` (${op.operationId}) */`,
    `  const ${op.operationId} = (${signature(op, `QueryOf<${id}>`, queryOptional).join(", ")}): Promise<DataOf<${id}>> =>`,
    `    t.call(OPERATIONS.${op.operationId}, ${callOptions(op)}, (init) =>`,
    `      t.api.${op.httpMethod}(${quote(op.path)}, ${init(op, query)}),`,
    "    );",
  ];
  if (op.paged) {
    const rest = `Omit<QueryOf<${id}>, "page">`;
    const args = signature({ ...op, query: op.query.filter((q) => q.name !== "page") }, rest, queryOptional);
    const forward = [
      ...op.pathParams,
      ...(op.body ? ["body"] : []),
      `{ ...query, page } as QueryOf<${id}>`,
      "options",
    ];
    lines.push(
      `  /** Every item of \`${op.method}\`, page after page. */`,
      `  const ${op.operationId}All = (${args.join(", ")}): AsyncGenerator<ItemOf<${id}>, void, undefined> =>`,
      `    t.paginate((page) => ${op.operationId}(${forward.join(", ")}));`,
    );
  }
  if (op.cursor) {
    const forward = [
      ...op.pathParams,
      ...(op.body ? ["body"] : []),
      `{ ...query, after } as QueryOf<${id}>`,
      "options",
    ];
    lines.push(
      `  /** Every item of \`${op.method}\` after \`query.after\`, with the position to store as \`cursor\`. */`,
      `  const ${op.operationId}All = (${signature(op, `QueryOf<${id}>`, queryOptional).join(", ")}): CursorFeed<ItemOf<${id}>> =>`,
      `    new CursorFeed((after) => ${op.operationId}(${forward.join(", ")}), query?.after);`,
    );
  }
  if (op.csv) {
    const rest = `Omit<QueryOf<${id}>, "format">`;
    const args = signature(op, rest, queryOptional);
    lines.push(
      `  /** \`${op.httpMethod} ${op.path}?format=csv\`: the whole report as CSV text. */`,
      `  const ${op.operationId}Csv = (${args.join(", ")}): Promise<string> =>`,
      `    t.call(OPERATIONS.${op.operationId}, ${callOptions(op)}, (init) =>`,
      `      t.api.${op.httpMethod}(${quote(op.path)}, ${init(op, `{ ...query, format: "csv" } as QueryOf<${id}>`, ['parseAs: "text"'])}),`,
      "    ) as Promise<string>;",
    );
  }
  return lines;
}

function renderGroup(group: string, operations: Operation[]): string[] {
  const member = (name: string, local: string) => (name === local ? name : `${name}: ${local}`);
  const members = operations.flatMap((op) => [
    member(op.method, op.operationId),
    ...(op.paged || op.cursor ? [member(iteratorName(op.method, "all"), `${op.operationId}All`)] : []),
    ...(op.csv ? [member(csvName(op.method), `${op.operationId}Csv`)] : []),
  ]);
  return [
    `export function ${group}Resource(t: Transport) {`,
    ...operations.flatMap(renderOperation),
    `  return { ${members.join(", ")} };`,
    "}",
    "",
  ];
}

export function renderTypeScript(table: OperationTable): string {
  const groups = groupsOf(table.operations);
  const meta = table.operations.map(
    (op) =>
      `  ${op.operationId}: { operationId: ${quote(op.operationId)}, access: ${quote(op.access)}, retry: ${quote(op.retry)} },`,
  );
  return [
    `// ${GENERATED_NOTICE}`,
    ...(table.operations.some((op) => op.cursor) ? [`import { CursorFeed } from "../feed.js";`] : []),
    `import { type CallOptions, jsonOrText, type Transport } from "../transport.js";`,
    `import type { BodyOf, DataOf, ItemOf, OperationMeta, QueryOf } from "../types.js";`,
    "",
    "/** Each operation's access rule and retry class, from the operation table. */",
    "export const OPERATIONS = {",
    ...meta,
    "} as const satisfies Record<string, OperationMeta>;",
    "",
    ...[...groups].flatMap(([group, operations]) => renderGroup(group, operations)),
    "/** The resource groups of the client, one property per group. */",
    "export class Resources {",
    ...[...groups.keys()].map((group) => `  readonly ${group}: ReturnType<typeof ${group}Resource>;`),
    "",
    "  constructor(t: Transport) {",
    ...[...groups.keys()].map((group) => `    this.${group} = ${group}Resource(t);`),
    "  }",
    "}",
    "",
  ].join("\n");
}
