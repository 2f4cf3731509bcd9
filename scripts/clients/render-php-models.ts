// Renders the PHP client's models: arrays with PHPStan shapes (decided in docs/decisions/clients.md), one
// `@phpstan-type` alias per model on `Generated\Models` that the resource classes import for their `@return`s,
// and one backed enum per enum (`ProductStatus::tryFrom($product['status'])`: null for a value a newer server
// added, never an error).

import type { EnumType, Model, TypeRef } from "./model-table.ts";
import { GENERATED_NOTICE } from "./names.ts";
import type { OperationTable } from "./operation-table.ts";

export const PHP_GENERATED_DIR = "clients/php/src/Generated";

const quote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** The PHPStan type of a value; `enums` spells an enum's values as their literal union. */
export function phpTypeOf(type: TypeRef, enums: Map<string, EnumType>): string {
  switch (type.kind) {
    case "string":
      return "string";
    case "integer":
      return "int";
    case "number":
      return "int|float"; // JSON's 20 decodes as an int, 20.5 as a float
    case "boolean":
      return "bool";
    case "any":
      return "mixed";
    case "model":
    case "union":
      return type.name;
    case "enum":
      return (enums.get(type.name)?.values ?? []).map(quote).join("|") || "string";
    case "array":
      return `list<${phpTypeOf(type.items, enums)}>`;
    case "map":
      return `array<string, ${phpTypeOf(type.values, enums)}>`;
  }
}

/** The model names a type mentions directly (the aliases a resource class imports). */
export function modelsIn(type: TypeRef | null): string[] {
  if (!type) return [];
  if (type.kind === "model" || type.kind === "union") return [type.name];
  if (type.kind === "array") return modelsIn(type.items);
  if (type.kind === "map") return modelsIn(type.values);
  return [];
}

const header = (namespace: string) => [
  "<?php",
  "",
  `// ${GENERATED_NOTICE}`,
  "",
  "declare(strict_types=1);",
  "",
  `namespace ${namespace};`,
  "",
];

function shapeOf(model: Model, enums: Map<string, EnumType>): string {
  const entries = model.fields.map((f) => {
    const type = f.literal === undefined ? phpTypeOf(f.type, enums) : quote(f.literal);
    return `${f.name}${f.required ? "" : "?"}: ${f.nullable ? `${type}|null` : type}`;
  });
  return `array{${entries.join(", ")}}`;
}

/** `in-transit` -> `InTransit`, `read:products` -> `ReadProducts`, `2fa` -> `V2fa`. */
export function phpCase(value: string): string {
  const name = value
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
  return /^[A-Za-z]/.test(name) ? name : `V${name}`;
}

function renderEnum(e: EnumType): string {
  return [
    ...header("Warehouse\\Api\\Generated"),
    `enum ${e.name}: string`,
    "{",
    ...e.values.map((value) => `    case ${phpCase(value)} = ${quote(value)};`),
    "}",
    "",
  ].join("\n");
}

export function renderPhpModels(table: OperationTable): Map<string, string> {
  const enums = new Map(table.enums.map((e) => [e.name, e]));
  const models = [
    ...header("Warehouse\\Api\\Generated"),
    "/**",
    " * Every model of the API as a PHPStan array shape: a response is the API's JSON decoded to arrays, with the API's",
    " * field names, so a field a newer server adds is simply one more key. Import one with",
    " * `@phpstan-import-type Product from \\Warehouse\\Api\\Generated\\Models`.",
    " *",
    ...table.models.map((model) => ` * @phpstan-type ${model.name} ${shapeOf(model, enums)}`),
    " *",
    " * Tagged unions: each variant's tag is its literal type, so `$event['type'] === 'order.created'` narrows.",
    ...table.unions.map(
      (union) =>
        ` * @phpstan-type ${union.name} ${[...union.variants.map((v) => v.model), union.fallback].join("|")}`,
    ),
    " */",
    "final class Models",
    "{",
    "}",
    "",
  ].join("\n");
  return new Map([
    [`${PHP_GENERATED_DIR}/Models.php`, models],
    ...table.enums.map((e): [string, string] => [`${PHP_GENERATED_DIR}/${e.name}.php`, renderEnum(e)]),
  ]);
}
