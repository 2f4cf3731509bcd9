// Renders src/openapi/code-samples.json: each operation called through the four official clients, which the served
// OpenAPI document carries as `x-codeSamples` (the docs page shows them). They are rendered from the same operation
// table and the same naming rules as the clients' methods, so a sample cannot name a method or argument that does
// not exist. Each shows the operation's required arguments with placeholder values of their type.

import type { ModelField, TypeRef } from "./model-table.ts";
import { pascalCase } from "./names.ts";
import type { Field, Operation, OperationTable } from "./operation-table.ts";
import { csharpName } from "./render-dotnet.ts";
import { propertyName } from "./render-dotnet-models.ts";
import { phpCase } from "./render-php-models.ts";
import { pythonName } from "./render-python.ts";
import { enumMember } from "./render-python-models.ts";

export const CODE_SAMPLES_PATH = "src/openapi/code-samples.json";

type Sample = { lang: string; label: string; source: string };
type Language = "typescript" | "python" | "php" | "csharp";

const BASE_URL = "https://wms.example.com";

/** A placeholder value of a type, as each language writes it. */
function placeholder(
  type: TypeRef | undefined,
  field: Field,
  language: Language,
  enums: Map<string, string[]>,
): string {
  const quote = (text: string) => (language === "php" ? `'${text}'` : JSON.stringify(text));
  const kind = type?.kind ?? field.type;
  const enumValues = type?.kind === "enum" ? enums.get(type.name) : field.enum;
  if (enumValues?.[0] !== undefined) {
    const value = enumValues[0];
    if (language === "csharp" && type?.kind === "enum") return `${type.name}.${phpCase(value)}`;
    if (language === "python" && type?.kind === "enum") return `m.${type.name}.${enumMember(value)}`;
    return quote(value);
  }
  switch (kind) {
    case "integer":
      return "1";
    case "number":
      return language === "csharp" ? "1.5m" : "1.5";
    case "boolean":
      return language === "python" ? "True" : "true";
    case "array":
      if (language === "csharp" && type?.kind === "array") return `new List<${csharpItem(type.items)}>()`;
      return "[]";
    case "model":
    case "object":
    case "map":
      if (language === "csharp" && type?.kind === "model") return `new ${type.name}()`;
      return language === "php" ? "[]" : "{}";
    default:
      return quote(
        field.name.endsWith("Id") || field.name === "id"
          ? "0190c3a4-7b2e-7c11-9e2f-3c5d8a1b4e6f"
          : field.name,
      );
  }
}

function csharpItem(type: TypeRef): string {
  if (type.kind === "model" || type.kind === "enum") return type.name;
  if (type.kind === "integer") return "long";
  if (type.kind === "number") return "decimal";
  if (type.kind === "boolean") return "bool";
  if (type.kind === "string") return "string";
  return "object";
}

function sampleFor(op: Operation, table: OperationTable, language: Language): string {
  const enums = new Map(table.enums.map((e) => [e.name, e.values]));
  const declared = op.bodyType;
  const bodyModel =
    declared?.kind === "model" ? table.models.find((model) => model.name === declared.name) : undefined;
  const typeOf = (f: Field): TypeRef | undefined =>
    bodyModel?.fields.find((field: ModelField) => field.name === f.name)?.type;
  const objectBody = op.body?.shape === "object" && op.body.fields.length > 0;
  const bodyFields = objectBody ? (op.body?.fields ?? []).filter((f) => f.required) : [];
  const query = op.query.filter((f) => f.required);
  const path = op.pathParams;
  const value = (f: Field, type?: TypeRef) => placeholder(type, f, language, enums);
  const pathValue = (name: string) => value({ name, type: "string", required: true, nullable: false });
  const bodyRequired = op.body?.required === true;
  const credential =
    op.access === "platform"
      ? {
          ts: "platformToken: process.env.WMS_PLATFORM_TOKEN",
          py: 'platform_token="..."',
          php: "'platform_token' => getenv('WMS_PLATFORM_TOKEN')",
          cs: "PlatformToken = platformToken",
        }
      : {
          ts: "apiKey: process.env.WMS_API_KEY",
          py: 'api_key="wms_live_..."',
          php: "'api_key' => getenv('WMS_API_KEY')",
          cs: "ApiKey = apiKey",
        };

  switch (language) {
    case "typescript": {
      const args = path.map(pathValue);
      if (op.body && (bodyRequired || objectBody)) {
        args.push(
          objectBody ? `{ ${bodyFields.map((f) => `${f.name}: ${value(f, typeOf(f))}`).join(", ")} }` : "[]",
        );
      }
      if (query.length > 0) args.push(`{ ${query.map((f) => `${f.name}: ${value(f)}`).join(", ")} }`);
      return [
        'import { WarehouseClient } from "@warehouse-api/client";',
        "",
        `const client = new WarehouseClient({ baseUrl: "${BASE_URL}", ${credential.ts} });`,
        `const result = await client.${op.group}.${op.method}(${args.join(", ")});`,
      ].join("\n");
    }
    case "python": {
      const args = path.map(pathValue);
      if (op.body && !objectBody && bodyRequired) args.push("[]");
      args.push(...bodyFields.map((f) => `${pythonName(f.name)}=${value(f, typeOf(f))}`));
      args.push(...query.map((f) => `${pythonName(f.name)}=${value(f)}`));
      return [
        "from warehouse_api import WarehouseClient",
        ...(args.some((a) => a.includes("m.")) ? ["from warehouse_api import models as m"] : []),
        "",
        `client = WarehouseClient("${BASE_URL}", ${credential.py})`,
        `result = client.${pythonName(op.group)}.${pythonName(op.method)}(${args.join(", ")})`,
      ].join("\n");
    }
    case "php": {
      const args = path.map(pathValue);
      if (op.body && (bodyRequired || objectBody)) {
        args.push(`[${bodyFields.map((f) => `'${f.name}' => ${value(f, typeOf(f))}`).join(", ")}]`);
      }
      if (query.length > 0) args.push(`[${query.map((f) => `'${f.name}' => ${value(f)}`).join(", ")}]`);
      return [
        "<?php",
        "",
        "use Warehouse\\Api\\WarehouseClient;",
        "",
        `$client = new WarehouseClient(['base_url' => '${BASE_URL}', ${credential.php}]);`,
        `$result = $client->${op.group}->${op.method}(${args.join(", ")});`,
      ].join("\n");
    }
    case "csharp": {
      const args = path.map(pathValue);
      if (op.body && (bodyRequired || objectBody)) {
        args.push(
          bodyModel && !op.body.csv
            ? `new ${bodyModel.name} { ${bodyFields.map((f) => `${propertyName(f.name, bodyModel.name)} = ${value(f, typeOf(f))}`).join(", ")} }`
            : "new object[0]",
        );
      }
      args.push(...query.map((f) => `${csharpName(f.name)}: ${value(f)}`));
      return [
        "using Warehouse.Api;",
        "using Warehouse.Api.Models;",
        "",
        `var client = new WarehouseClient(new WarehouseClientOptions { BaseUrl = "${BASE_URL}", ${credential.cs} });`,
        `var result = await client.${pascalCase(op.group)}.${pascalCase(op.method)}Async(${args.join(", ")});`,
      ].join("\n");
    }
  }
}

const LANGUAGES: [Language, string][] = [
  ["typescript", "TypeScript"],
  ["python", "Python"],
  ["php", "PHP"],
  ["csharp", "C#"],
];

export function renderCodeSamples(table: OperationTable): string {
  const samples: Record<string, Sample[]> = {};
  for (const op of table.operations) {
    samples[op.operationId] = LANGUAGES.map(([lang, label]) => ({
      lang,
      label,
      source: sampleFor(op, table, lang),
    }));
  }
  return `${JSON.stringify(samples, null, 2)}\n`;
}
