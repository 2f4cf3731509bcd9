// Renders clients/php/src/Resources/: one class per resource group (`$client->products->list([...])`), the
// operation metadata (`Operations::ALL`) and the base class holding one property per group.

import type { TypeRef } from "./model-table.ts";
import { assertDistinct, csvName, GENERATED_NOTICE, groupsOf, iteratorName, pascalCase } from "./names.ts";
import type { Field, Operation, OperationTable } from "./operation-table.ts";
import { classesIn, phpClass, phpTypeOf } from "./render-php-models.ts";

export const PHP_RESOURCES_DIR = "clients/php/src/Resources";

const quote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
const optionName = (header: string) => header.toLowerCase().replace(/-/g, "_");

const SCALARS: Record<Field["type"], string> = {
  string: "string",
  integer: "int",
  number: "float",
  boolean: "bool",
  array: "list<mixed>",
  object: "array<string, mixed>",
  any: "mixed",
};

const isFlag = (f: Field) => f.enum?.length === 2 && f.enum.includes("true") && f.enum.includes("false");

function phpType(f: Field): string {
  const base = isFlag(f) ? "bool" : f.enum ? f.enum.map(quote).join("|") : SCALARS[f.type];
  return f.nullable ? `${base}|null` : base;
}

/** A PHPStan/Psalm array shape: `array{sku: string, price?: float|null}`. */
const shape = (fields: Field[]) =>
  `array{${fields.map((f) => `${f.name}${f.required ? "" : "?"}: ${phpType(f)}`).join(", ")}}`;

function optionsDoc(op: Operation): string {
  const keys = [
    ...(op.retry === "idempotency-key" ? ["idempotency_key?: string"] : []),
    ...op.headers.map((h) => `${optionName(h.name)}?: string`),
    "timeout?: float",
  ];
  return `array{${keys.join(", ")}}`;
}

function docBlock(summary: string, params: string[], returns?: string): string[] {
  return [
    "    /**",
    `     * ${summary}`,
    ...(params.length > 0 || returns ? ["     *"] : []),
    ...params.map((p) => `     * @param ${p}`),
    ...(returns ? [`     * @return ${returns}`] : []),
    "     */",
  ];
}

/** The expression reading `json` (the decoded data) as a record class, a list of them, or null when it is the value. */
function recordOf(type: TypeRef | null, json: string): string | null {
  if (type?.kind === "model" || type?.kind === "union") return `${phpClass(type.name)}::fromArray(${json})`;
  if (type?.kind === "array" && (type.items.kind === "model" || type.items.kind === "union"))
    return `array_map(fn (array $v) => ${phpClass(type.items.name)}::fromArray($v), ${json})`;
  return null;
}

/** What a call returns: its PHPDoc type, the PHP return type, and how the transport's answer becomes it. */
function returnsOf(op: Operation): { doc: string; php: string; wrap: (call: string) => string } {
  const as = (call: string) => call;
  if (op.download)
    return { doc: `string the file's bytes (${op.download.join(" or ")})`, php: "string", wrap: as };
  if (op.paged) {
    const item = op.itemType ? recordOf(op.itemType, "$item") : null;
    return {
      doc: `Page<${op.itemType ? phpTypeOf(op.itemType) : "array<string, mixed>"}>`,
      php: "Page",
      wrap: (call) => (item ? `${call}->map(fn (array $item) => ${item})` : call),
    };
  }
  const data = op.dataType;
  if (data && recordOf(data, "$data")) {
    return {
      doc: phpTypeOf(data),
      php: data.kind === "model" || data.kind === "union" ? phpClass(data.name) : "array",
      wrap: (call) => recordOf(data, call) ?? call,
    };
  }
  const doc = data ? phpTypeOf(data) : "null";
  return { doc: doc === "mixed" || doc === "null" ? doc : `${doc}|null`, php: "mixed", wrap: as };
}

function renderOperation(op: Operation): string[] {
  const returns = returnsOf(op);
  const objectBody = op.body?.shape === "object" && op.body.fields.length > 0;
  const queryRequired = op.query.some((q) => q.required);
  const args = op.pathParams.map((p) => `string $${p}`);
  const params: string[] = [];
  if (op.body) {
    args.push(`${op.body.csv ? "array|string" : "array"} $body${op.body.required ? "" : " = []"}`);
    const type = objectBody ? shape(op.body.fields) : op.body.csv ? "list<mixed>|string" : "array<mixed>";
    params.push(`${type} $body${op.body.csv ? " JSON rows, or CSV text with a header row" : ""}`);
  }
  if (op.query.length > 0) {
    args.push(`array $query${queryRequired ? "" : " = []"}`);
    params.push(`${shape(op.query)} $query`);
  }
  args.push("array $options = []");
  params.push(`${optionsDoc(op)} $options`);
  assertDistinct(
    op,
    args.map((a) => a.split(" ")[1] ?? a),
  );

  const call = (query: string | null, extra: string[], wrap = returns.wrap) => {
    const named = [
      quote(op.operationId),
      ...(op.pathParams.length > 0 ? [`path: [${op.pathParams.map((p) => `$${p}`).join(", ")}]`] : []),
      ...(query ? [`query: ${query}`] : []),
      ...(op.body ? ["body: $body"] : []),
      "options: $options",
      ...(op.headers.length > 0
        ? [
            `headers: [${op.headers.map((h) => `${quote(h.name)} => $options[${quote(optionName(h.name))}] ?? null`).join(", ")}]`,
          ]
        : []),
      ...extra,
    ];
    return [`        return ${wrap(`$this->transport->call(${named.join(", ")})`)};`];
  };

  const summary = `\`${op.httpMethod} ${op.path}\` (${op.operationId}).`;
  const lines = [
    "",
    ...docBlock(summary, params, returns.doc),
    `    public function ${op.method}(${args.join(", ")}): ${returns.php}`,
    "    {",
    ...call(op.query.length > 0 ? "$query" : null, [
      ...(op.paged ? ["paged: true"] : []),
      ...(op.download ? [`download: ${quote(op.download.join(", "))}`] : []),
    ]),
    "    }",
  ];
  if (op.paged) {
    const forward = [
      ...op.pathParams.map((p) => `$${p}`),
      ...(op.body ? ["$body"] : []),
      "['page' => $page] + $query",
      "$options",
    ];
    lines.push(
      "",
      ...docBlock(
        `Every item of \`${op.method}\`, page after page.`,
        params,
        `\\Generator<int, ${op.itemType ? phpTypeOf(op.itemType) : "array<string, mixed>"}>`,
      ),
      `    public function ${iteratorName(op.method, "iterate")}(${args.join(", ")}): \\Generator`,
      "    {",
      `        return $this->transport->iterate(fn (int $page): Page => $this->${op.method}(${forward.join(", ")}));`,
      "    }",
    );
  }
  if (op.cursor) {
    const forward = [
      ...op.pathParams.map((p) => `$${p}`),
      ...(op.body ? ["$body"] : []),
      "['after' => $after] + $query",
      "$options",
    ];
    lines.push(
      "",
      ...docBlock(
        `Every item of \`${op.method}\` after \`$query['after']\`, with the position to store as \`cursor()\`.`,
        params,
        `CursorFeed<${op.itemType ? phpTypeOf(op.itemType) : "array<string, mixed>"}>`,
      ),
      `    public function ${iteratorName(op.method, "iterate")}(${args.join(", ")}): CursorFeed`,
      "    {",
      `        return new CursorFeed(fn (?string $after): object => $this->${op.method}(${forward.join(", ")}), $query['after'] ?? null);`,
      "    }",
    );
  }
  if (op.csv) {
    lines.push(
      "",
      ...docBlock(`\`${op.httpMethod} ${op.path}?format=csv\`: the whole report as CSV text.`, params),
      `    public function ${csvName(op.method)}(${args.join(", ")}): string`,
      "    {",
      ...call("['format' => 'csv'] + $query", ["csv: true"], (text) => text),
      "    }",
    );
  }
  return lines;
}

const header = [
  "<?php",
  "",
  `// ${GENERATED_NOTICE}`,
  "",
  "declare(strict_types=1);",
  "",
  "namespace Warehouse\\Api\\Resources;",
  "",
];

function renderGroup(group: string, operations: Operation[]): string {
  const usesPage = operations.some((op) => op.paged);
  const usesFeed = operations.some((op) => op.cursor);
  const imported = [
    ...new Set(
      operations.flatMap((op) => [
        ...classesIn(op.paged ? op.itemType : op.dataType),
        ...(op.cursor ? classesIn(op.itemType) : []),
      ]),
    ),
  ].sort();
  return [
    ...header,
    ...(usesFeed ? ["use Warehouse\\Api\\CursorFeed;"] : []),
    ...imported.map((name) => `use Warehouse\\Api\\Generated\\${name};`),
    ...(usesPage ? ["use Warehouse\\Api\\Page;"] : []),
    "use Warehouse\\Api\\Transport;",
    "",
    "/**",
    ` * \`$client->${group}\`: ${operations.map((op) => op.operationId).join(", ")}.`,
    " */",
    `final class ${pascalCase(group)}Resource`,
    "{",
    "    public function __construct(private readonly Transport $transport)",
    "    {",
    "    }",
    ...operations.flatMap(renderOperation),
    "}",
    "",
  ].join("\n");
}

function renderOperations(table: OperationTable): string {
  return [
    ...header,
    "/** Each operation's verb, path, access rule and retry class, from the operation table. */",
    "final class Operations",
    "{",
    "    /** @var array<string, array{string, string, string, string}> operationId => [verb, path, access, retry] */",
    "    public const ALL = [",
    ...table.operations.map(
      (op) =>
        `        ${quote(op.operationId)} => [${[op.httpMethod, op.path, op.access, op.retry].map(quote).join(", ")}],`,
    ),
    "    ];",
    "}",
    "",
  ].join("\n");
}

function renderResources(groups: string[]): string {
  return [
    ...header,
    "use Warehouse\\Api\\Transport;",
    "",
    "/** The resource groups of the client, one property per group. */",
    "abstract class Resources",
    "{",
    ...groups.map((group) => `    public readonly ${pascalCase(group)}Resource $${group};`),
    "",
    "    protected function __construct(Transport $transport)",
    "    {",
    ...groups.map((group) => `        $this->${group} = new ${pascalCase(group)}Resource($transport);`),
    "    }",
    "}",
    "",
  ].join("\n");
}

export function renderPhp(table: OperationTable): Map<string, string> {
  const groups = groupsOf(table.operations);
  const files = new Map<string, string>([
    [`${PHP_RESOURCES_DIR}/Operations.php`, renderOperations(table)],
    [`${PHP_RESOURCES_DIR}/Resources.php`, renderResources([...groups.keys()])],
  ]);
  for (const [group, operations] of groups) {
    files.set(`${PHP_RESOURCES_DIR}/${pascalCase(group)}Resource.php`, renderGroup(group, operations));
  }
  return files;
}
