// Renders clients/dotnet/src/Generated/Resources.g.cs: one class per resource group with one `...Async` method per
// operation (typed query parameters, an anonymous object or dictionary as the body), the operation metadata, and
// the WarehouseClient properties. C# 7.2: Debian's Mono compiler (mcs) builds it here.
import {
  assertDistinct,
  csvName,
  GENERATED_NOTICE,
  groupsOf,
  headerOption,
  iteratorName,
  pascalCase,
} from "./names.ts";
import type { Field, Operation, OperationTable } from "./operation-table.ts";
import { csharpRead, csharpTypeOf } from "./render-dotnet-models.ts";

const KEYWORDS = new Set(
  (
    "abstract as base bool break byte case catch char checked class const continue decimal default delegate do double " +
    "else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is " +
    "lock long namespace new null object operator out override params private protected public readonly ref return " +
    "sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked " +
    "unsafe ushort using virtual void volatile while"
  ).split(" "),
);

/** `pageSize` -> `pageSize`, `if-match` -> `ifMatch`, `params` -> `@params`. */
export function csharpName(name: string): string {
  const camel = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return KEYWORDS.has(camel) ? `@${camel}` : camel;
}

const quote = JSON.stringify;
const isFlag = (f: Field) => f.enum?.length === 2 && f.enum.includes("true") && f.enum.includes("false");

function csharpType(f: Field): string {
  if (isFlag(f) || f.type === "boolean") return f.required ? "bool" : "bool?";
  if (f.type === "integer") return f.required ? "int" : "int?";
  if (f.type === "number") return f.required ? "decimal" : "decimal?";
  if (f.type === "string") return "string";
  if (f.type === "array") return "System.Collections.Generic.IEnumerable<object>";
  return "object";
}

const defaultOf = (f: Field) => (f.required ? "" : " = null");
const operationField = (op: Operation) => pascalCase(op.operationId);

/** The body's model class, or `object` (CSV text or JSON rows, a free-form value). */
const bodyClass = (op: Operation) =>
  op.bodyType?.kind === "model" && !op.body?.csv ? `Models.${op.bodyType.name}` : "object";
const M = "Models.";

/** The type of a page's or feed's items, and how one is read from the parsed JSON. */
function itemOf(op: Operation): { type: string; read: string } {
  return op.itemType
    ? { type: csharpTypeOf(op.itemType, true, M), read: `v => ${csharpRead(op.itemType, "v", true, M)}` }
    : { type: "JsonObject", read: "v => v as JsonObject" };
}

function parameters(op: Operation, query: Field[]): string[] {
  const args = op.pathParams.map((p) => `string ${csharpName(p)}`);
  if (op.body) args.push(`${bodyClass(op)} body${op.body.required ? "" : " = null"}`);
  const ordered = [...query.filter((f) => f.required), ...query.filter((f) => !f.required)];
  args.push(...ordered.map((f) => `${csharpType(f)} ${csharpName(f.name)}${defaultOf(f)}`));
  args.push(...op.headers.map((h) => `string ${csharpName(headerOption(h.name))} = null`));
  if (op.retry === "idempotency-key") args.push("string idempotencyKey = null");
  args.push("CancellationToken cancellationToken = default(CancellationToken)");
  assertDistinct(
    op,
    args.map((a) => a.split(" ")[1] ?? a),
  );
  return args;
}

function call(
  op: Operation,
  kind: "DataAsync" | "PageAsync" | "TextAsync" | "BytesAsync",
  query: Field[],
  extra: string[],
  reader: string[] = [],
): string {
  const path = `new[] { ${op.pathParams.map(csharpName).join(", ")} }`;
  const entries = [...query.map((f) => `{ ${quote(f.name)}, ${csharpName(f.name)} }`), ...extra];
  const queryArg = entries.length > 0 ? `new Dictionary<string, object> { ${entries.join(", ")} }` : "null";
  const headers =
    op.headers.length > 0
      ? `new Dictionary<string, string> { ${op.headers.map((h) => `{ ${quote(h.name)}, ${csharpName(headerOption(h.name))} }`).join(", ")} }`
      : "null";
  const args = [
    `Operations.${operationField(op)}`,
    op.pathParams.length > 0 ? path : "new string[0]",
    queryArg,
    op.body ? "body" : "null",
    headers,
    op.retry === "idempotency-key" ? "idempotencyKey" : "null",
    "cancellationToken",
    ...reader,
  ];
  return `_transport.${kind}(${args.join(", ")})`;
}

/** What a call returns and the statement that returns it. */
function returning(op: Operation): { type: string; body: string[] } {
  if (op.download) {
    return {
      type: "Task<byte[]>",
      body: [`            return ${call(op, "BytesAsync", op.query, [], [quote(op.download.join(", "))])};`],
    };
  }
  if (op.paged) {
    const item = itemOf(op);
    return {
      type: `Task<ResultPage<${item.type}>>`,
      body: [`            return ${call(op, "PageAsync", op.query, [], [item.read])};`],
    };
  }
  const data = op.dataType;
  if (data && data.kind !== "any") {
    return {
      type: `async Task<${csharpTypeOf(data, false, M)}>`,
      body: [
        `            var data = await ${call(op, "DataAsync", op.query, [])}.ConfigureAwait(false);`,
        `            return ${csharpRead(data, "data", false, M)};`,
      ],
    };
  }
  return { type: "Task<object>", body: [`            return ${call(op, "DataAsync", op.query, [])};`] };
}

function renderOperation(op: Operation): string[] {
  const name = pascalCase(op.method);
  const result = returning(op);
  const item = itemOf(op);
  const lines = [
    "",
    `        /// <summary><c>${op.httpMethod} ${op.path}</c> (${op.operationId})${op.download ? `: the file's bytes (${op.download.join(" or ")})` : ""}.</summary>`,
    `        public ${result.type} ${name}Async(${parameters(op, op.query).join(", ")})`,
    "        {",
    ...result.body,
    "        }",
  ];
  if (op.paged) {
    const rest = op.query.filter((f) => f.name !== "page");
    const forward = [
      ...op.pathParams.map((p) => `${csharpName(p)}: ${csharpName(p)}`),
      ...(op.body ? ["body: body"] : []),
      "page: nextPage",
      ...rest.map((f) => `${csharpName(f.name)}: ${csharpName(f.name)}`),
      ...op.headers.map((h) => `${csharpName(headerOption(h.name))}: ${csharpName(headerOption(h.name))}`),
      "cancellationToken: cancellationToken",
    ];
    lines.push(
      "",
      `        /// <summary>Every item of <c>${name}Async</c>, page after page.</summary>`,
      `        public PageIterator<${item.type}> ${pascalCase(iteratorName(op.method, "all"))}Async(${parameters(op, rest).join(", ")})`,
      "        {",
      `            return new PageIterator<${item.type}>(nextPage => ${name}Async(${forward.join(", ")}));`,
      "        }",
    );
  }
  if (op.cursor) {
    // The feed reads the raw pages (their cursor fields) and each item as its model.
    const page = call(op, "DataAsync", op.query, []).replace(`{ "after", after }`, `{ "after", position }`);
    lines.push(
      "",
      `        /// <summary>Every item of <c>${name}Async</c> after <c>after</c>, with the position to store as <c>Cursor</c>.</summary>`,
      `        public CursorFeed<${item.type}> ${pascalCase(iteratorName(op.method, "all"))}Async(${parameters(op, op.query).join(", ")})`,
      "        {",
      `            return new CursorFeed<${item.type}>(async position => await ${page}.ConfigureAwait(false) as JsonObject, ${item.read}, after);`,
      "        }",
    );
  }
  if (op.csv) {
    const rest = op.query.filter((f) => f.name !== "format");
    lines.push(
      "",
      `        /// <summary><c>${op.httpMethod} ${op.path}?format=csv</c>: the whole report as CSV text.</summary>`,
      `        public Task<string> ${pascalCase(csvName(op.method))}Async(${parameters(op, rest).join(", ")})`,
      "        {",
      `            return ${call(op, "TextAsync", rest, ['{ "format", "csv" }'])};`,
      "        }",
    );
  }
  return lines;
}

function renderGroup(group: string, operations: Operation[]): string[] {
  const name = `${pascalCase(group)}Resource`;
  return [
    "",
    `    /// <summary><c>client.${pascalCase(group)}</c>: ${operations.map((op) => op.operationId).join(", ")}.</summary>`,
    `    public sealed class ${name}`,
    "    {",
    "        private readonly Transport _transport;",
    "",
    `        internal ${name}(Transport transport)`,
    "        {",
    "            _transport = transport;",
    "        }",
    ...operations.flatMap(renderOperation),
    "    }",
  ];
}

export function renderDotnet(table: OperationTable): string {
  const groups = groupsOf(table.operations);
  return [
    `// <auto-generated>${GENERATED_NOTICE}</auto-generated>`,
    "using System.Collections.Generic;",
    "using System.Threading;",
    "using System.Threading.Tasks;",
    "",
    "namespace Warehouse.Api",
    "{",
    "    /// <summary>Each operation's verb, path, access rule and retry class, from the operation table.</summary>",
    "    internal static class Operations",
    "    {",
    ...table.operations.map(
      (op) =>
        `        internal static readonly Operation ${operationField(op)} = new Operation(${[op.operationId, op.httpMethod, op.path, op.access, op.retry].map((v) => quote(v)).join(", ")});`,
    ),
    "    }",
    "",
    "    public sealed partial class WarehouseClient",
    "    {",
    ...[...groups].flatMap(([group, operations]) => [
      `        /// <summary>${operations.map((op) => op.operationId).join(", ")}.</summary>`,
      `        public ${pascalCase(group)}Resource ${pascalCase(group)} { get; private set; }`,
      "",
    ]),
    "        private void InitializeResources(Transport transport)",
    "        {",
    ...[...groups.keys()].map(
      (group) => `            ${pascalCase(group)} = new ${pascalCase(group)}Resource(transport);`,
    ),
    "        }",
    "    }",
    ...[...groups].flatMap(([group, operations]) => renderGroup(group, operations)),
    "}",
    "",
  ].join("\n");
}
