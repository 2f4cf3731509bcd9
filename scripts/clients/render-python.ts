// Renders clients/python/warehouse_api/_operations.py: one class per resource group, one method per operation
// with keyword arguments in snake_case (body fields and query parameters), returning the envelope's data.

import type { TypeRef } from "./model-table.ts";
import {
  assertDistinct,
  csvName,
  GENERATED_NOTICE,
  groupsOf,
  headerOption,
  iteratorName,
  pascalCase,
  snakeCase,
} from "./names.ts";
import type { Field, Operation, OperationTable } from "./operation-table.ts";
import { pythonConverter, pythonTypeOf } from "./render-python-models.ts";

const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** `pageSize` -> `page_size`, `if-match` -> `if_match`, `from` -> `from_`, `import` -> `import_`. */
export function pythonName(name: string): string {
  const snake = snakeCase(name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
  return KEYWORDS.has(snake) ? `${snake}_` : snake;
}

const quote = JSON.stringify;
const SCALARS: Record<Field["type"], string> = {
  string: "str",
  integer: "int",
  number: "float",
  boolean: "bool",
  array: "List[Any]",
  object: "Dict[str, Any]",
  any: "Any",
};

/** A string parameter that only takes "true" or "false" is a bool in Python (sent as true/false). */
const isFlag = (f: Field) => f.enum?.length === 2 && f.enum.includes("true") && f.enum.includes("false");

function pythonType(f: Field): string {
  const base = isFlag(f)
    ? "bool"
    : f.enum
      ? `Literal[${f.enum.map((v) => quote(v)).join(", ")}]`
      : SCALARS[f.type];
  return f.nullable || !f.required ? `Optional[${base}]` : base;
}

const argument = (f: Field) => `${pythonName(f.name)}: ${pythonType(f)}${f.required ? "" : " = UNSET"}`;

/** A body argument typed by the body's model: nested models also take plain dicts with the API's names. */
function inputType(type: TypeRef): string {
  if (type.kind === "model") return `Union[m.${type.name}, Dict[str, Any]]`;
  if (type.kind === "array") return `List[${inputType(type.items)}]`;
  if (type.kind === "map") return `Dict[str, ${inputType(type.values)}]`;
  return pythonTypeOf(type, "m.");
}

function bodyArgument(f: Field, type: TypeRef | undefined): string {
  if (!type || f.enum) return argument(f);
  const base = inputType(type);
  return `${pythonName(f.name)}: ${f.nullable || !f.required ? `Optional[${base}]` : base}${f.required ? "" : " = UNSET"}`;
}

/** What a call returns, and the converter from the envelope's data (or a page's items) to it. */
function returns(op: Operation): { annotation: string; convert: string | null } {
  if (op.paged) {
    const item = op.itemType;
    return {
      annotation: `Page[${item ? pythonTypeOf(item, "m.") : "Dict[str, Any]"}]`,
      convert: item ? pythonConverter(item, "m.") : null,
    };
  }
  if (op.download) return { annotation: "bytes", convert: null };
  const data = op.dataType;
  if (!data) return { annotation: "None", convert: null };
  return { annotation: pythonTypeOf(data, "m."), convert: pythonConverter(data, "m.") };
}
const mapping = (fields: Field[]) =>
  `{${fields.map((f) => `${quote(f.name)}: ${pythonName(f.name)}`).join(", ")}}`;

function bodyType(op: Operation): string {
  const base =
    op.body?.shape === "array" ? "List[Any]" : op.body?.shape === "object" ? "Dict[str, Any]" : "Any";
  return op.body?.csv ? `Union[${base}, str]` : base;
}

/** A method definition: `def name(self, <positional>, *, <keywords>) -> returns:` plus its docstring. */
function definition(
  name: string,
  positional: string[],
  keywords: string[],
  returns: string,
  doc: string,
): string[] {
  const args = ["self", ...positional, ...(keywords.length > 0 ? ["*", ...keywords] : [])];
  const head =
    args.length <= 2
      ? [`    def ${name}(${args.join(", ")}) -> ${returns}:`]
      : [`    def ${name}(`, ...args.map((a) => `        ${a},`), `    ) -> ${returns}:`];
  return ["", ...head, `        """${doc}"""`];
}

function renderOperation(op: Operation, table: OperationTable): string[] {
  const declared = op.bodyType;
  const bodyModel =
    declared?.kind === "model" ? table.models.find((model) => model.name === declared.name) : undefined;
  const typeOfField = (f: Field) => bodyModel?.fields.find((field) => field.name === f.name)?.type;
  const result = returns(op);
  const objectBody = op.body?.shape === "object" && op.body.fields.length > 0;
  const bodyFields = objectBody ? (op.body?.fields ?? []) : [];
  const positional = op.pathParams.map((p) => `${pythonName(p)}: str`);
  if (op.body && !objectBody)
    positional.push(`body: ${op.body.required ? bodyType(op) : `Optional[${bodyType(op)}] = None`}`);
  const extras = [
    ...op.headers.map((h) => `${pythonName(headerOption(h.name))}: Optional[str] = None`),
    ...(op.retry === "idempotency-key" ? ["idempotency_key: Optional[str] = None"] : []),
    "timeout: Optional[float] = None",
  ];
  assertDistinct(op, [
    ...op.pathParams.map(pythonName),
    ...bodyFields.map((f) => pythonName(f.name)),
    ...op.query.map((f) => pythonName(f.name)),
    ...extras.map((e) => e.split(":")[0] ?? e),
  ]);

  const call = (query: Field[], extraQuery: string, options: string[]) => {
    const parts = [`OPERATIONS[${quote(op.operationId)}]`];
    if (op.pathParams.length > 0) parts.push(`path=(${op.pathParams.map(pythonName).join(", ")},)`);
    if (query.length > 0 || extraQuery) {
      const entries = [
        ...query.map((f) => `${quote(f.name)}: ${pythonName(f.name)}`),
        ...(extraQuery ? [extraQuery] : []),
      ];
      parts.push(`query={${entries.join(", ")}}`);
    }
    if (objectBody) parts.push(`body=${mapping(bodyFields)}`);
    else if (op.body) parts.push("body=body");
    if (op.headers.length > 0) {
      parts.push(
        `headers={${op.headers.map((h) => `${quote(h.name)}: ${pythonName(headerOption(h.name))}`).join(", ")}}`,
      );
    }
    if (op.retry === "idempotency-key") parts.push("idempotency_key=idempotency_key");
    parts.push("timeout=timeout");
    parts.push(...options);
    return [`        return self._t.call(`, ...parts.map((p) => `            ${p},`), "        )"];
  };

  // What an iterator passes on to the method it reads page after page: every argument as it came, but the
  // ones it sets itself (`own`, or what `setBy` answers for a field).
  const forwarded = (
    own: string[],
    fields: Field[],
    setBy: (f: Field) => string | undefined = () => undefined,
  ) => [
    ...op.pathParams.map(pythonName),
    ...(op.body && !objectBody ? ["body"] : []),
    ...own,
    ...[...bodyFields, ...fields].map((f) => setBy(f) ?? `${pythonName(f.name)}=${pythonName(f.name)}`),
    ...extras.map((e) => {
      const name = e.split(":")[0] ?? e;
      return `${name}=${name}`;
    }),
  ];

  const bodyArguments = bodyFields.map((f) => bodyArgument(f, typeOfField(f)));
  const keywords = [...bodyArguments, ...op.query.map(argument), ...extras];
  const doc = op.download
    ? `\`\`${op.httpMethod} ${op.path}\`\` (${op.operationId}): the file's bytes (${op.download.join(" or ")}).`
    : `\`\`${op.httpMethod} ${op.path}\`\` (${op.operationId}).`;
  const options = [
    ...(op.download ? [`download=${quote(op.download.join(", "))}`] : []),
    ...(op.paged ? ["paged=True"] : []),
    ...(result.convert ? [`convert=${result.convert}`] : []),
  ];
  const lines = [
    ...definition(pythonName(op.method), positional, keywords, result.annotation, doc),
    ...call(op.query, "", options),
  ];
  if (op.paged) {
    const rest = op.query.filter((f) => f.name !== "page");
    const forward = forwarded(["page=page"], rest);
    lines.push(
      ...definition(
        pythonName(iteratorName(op.method, "iterate")),
        positional,
        [...bodyArguments, ...rest.map(argument), ...extras],
        `Iterator[${op.itemType ? pythonTypeOf(op.itemType, "m.") : "Dict[str, Any]"}]`,
        `Every item of \`\`${pythonName(op.method)}\`\`, page after page.`,
      ),
      `        return self._t.iterate(lambda page: self.${pythonName(op.method)}(${forward.join(", ")}))`,
    );
  }
  if (op.cursor) {
    const forward = forwarded([], op.query, (f) =>
      f.name === "after" ? "after=UNSET if position is None else position" : undefined,
    );
    lines.push(
      ...definition(
        pythonName(iteratorName(op.method, "iterate")),
        positional,
        keywords,
        `CursorFeed[${op.itemType ? pythonTypeOf(op.itemType, "m.") : "Dict[str, Any]"}]`,
        `Every item of \`\`${pythonName(op.method)}\`\` after \`\`after\`\`, with the position to store as \`\`cursor\`\`.`,
      ),
      "        return CursorFeed(",
      `            lambda position: self.${pythonName(op.method)}(${forward.join(", ")}),`,
      "            None if after is UNSET else after,",
      "        )",
    );
  }
  if (op.csv) {
    const rest = op.query.filter((f) => f.name !== "format");
    lines.push(
      ...definition(
        pythonName(csvName(op.method)),
        positional,
        [...bodyArguments, ...rest.map(argument), ...extras],
        "str",
        `\`\`${op.httpMethod} ${op.path}?format=csv\`\`: the whole report as CSV text.`,
      ),
      ...call(rest, `"format": "csv"`, ["csv=True"]),
    );
  }
  return lines;
}

function renderGroup(group: string, operations: Operation[], table: OperationTable): string[] {
  return [
    "",
    "",
    `class ${pascalCase(group)}Resource:`,
    `    """\`\`client.${pythonName(group)}\`\`: ${operations.map((op) => op.operationId).join(", ")}."""`,
    "",
    "    def __init__(self, transport: Transport) -> None:",
    "        self._t = transport",
    ...operations.flatMap((op) => renderOperation(op, table)),
  ];
}

export function renderPython(table: OperationTable): string {
  const groups = groupsOf(table.operations);
  return [
    `# ${GENERATED_NOTICE}`,
    "# flake8: noqa",
    "from typing import Any, Dict, Iterator, List, Literal, Optional, Union",
    "",
    "from . import _model as _m",
    "from . import models as m",
    "from ._feed import CursorFeed",
    "from ._transport import UNSET, Operation, Page, Transport",
    "",
    "OPERATIONS: Dict[str, Operation] = {",
    ...table.operations.map(
      (op) =>
        `    ${quote(op.operationId)}: Operation(${[op.operationId, op.httpMethod, op.path, op.access, op.retry].map((v) => quote(v)).join(", ")}),`,
    ),
    "}",
    ...[...groups].flatMap(([group, operations]) => renderGroup(group, operations, table)),
    "",
    "",
    "class Resources:",
    '    """The resource groups of the client, one attribute per group."""',
    "",
    "    def __init__(self, transport: Transport) -> None:",
    ...[...groups.keys()].map(
      (group) => `        self.${pythonName(group)} = ${pascalCase(group)}Resource(transport)`,
    ),
    "",
  ].join("\n");
}
