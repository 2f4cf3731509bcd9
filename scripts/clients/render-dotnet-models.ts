// Renders clients/dotnet/src/Generated/Models.g.cs: a class per model (PascalCase properties, `FromJson` from the
// API's JSON, `ToJson` back to it, fields a newer server adds kept in `AdditionalProperties`) and an enum per enum
// (`Unknown` first, each member naming its JSON value). Value-typed properties are nullable: a field the server
// leaves out reads null, never a default that looks like data. C# 7.2: Debian's Mono compiler builds it here.

import type { EnumType, Model, TypeRef } from "./model-table.ts";
import { GENERATED_NOTICE } from "./names.ts";
import type { OperationTable } from "./operation-table.ts";
import { phpCase } from "./render-php-models.ts";

const quote = JSON.stringify;

/** A JSON field's property name: `reorderPoint` -> `ReorderPoint`; never the class's own name. */
export function propertyName(field: string, owner: string): string {
  const name = phpCase(field.replace(/^[^A-Za-z]+/, "") || field);
  return name === owner || name === "AdditionalProperties" || name === "ToJson" || name === "FromJson"
    ? `${name}Value`
    : name;
}

/** The C# type of a value; `item` for a list's or map's items (value types there are not nullable). */
export function csharpTypeOf(type: TypeRef, item = false, prefix = ""): string {
  const value = (name: string) => (item ? name : `${name}?`);
  switch (type.kind) {
    case "string":
      return "string";
    case "integer":
      return value("long");
    case "number":
      return value("decimal");
    case "boolean":
      return value("bool");
    case "any":
      return "object";
    case "model":
      return `${prefix}${type.name}`;
    case "enum":
      return value(`${prefix}${type.name}`);
    case "array":
      return `IList<${csharpTypeOf(type.items, true, prefix)}>`;
    case "map":
      return `IDictionary<string, ${csharpTypeOf(type.values, true, prefix)}>`;
  }
}

/** The expression reading `source` (an object from the JSON parser) as this type. */
export function csharpRead(type: TypeRef, source: string, item = false, prefix = ""): string {
  const orDefault = (expression: string) => (item ? `${expression}.GetValueOrDefault()` : expression);
  switch (type.kind) {
    case "string":
      return `ModelJson.ToStringValue(${source})`;
    case "integer":
      return orDefault(`ModelJson.ToInt64(${source})`);
    case "number":
      return orDefault(`ModelJson.ToDecimal(${source})`);
    case "boolean":
      return orDefault(`ModelJson.ToBoolean(${source})`);
    case "any":
      return source;
    case "model":
      return `${prefix}${type.name}.FromJson(${source} as JsonObject)`;
    case "enum":
      return orDefault(`ModelJson.ToEnum<${prefix}${type.name}>(${source})`);
    case "array":
      return `ModelJson.ToList(${source}, v => ${csharpRead(type.items, "v", true, prefix)})`;
    case "map":
      return `ModelJson.ToMap(${source}, v => ${csharpRead(type.values, "v", true, prefix)})`;
  }
}

function renderEnum(e: EnumType): string[] {
  return [
    "",
    `    public enum ${e.name}`,
    "    {",
    "        /// <summary>A value this version of the client does not know (a newer server's).</summary>",
    "        Unknown = 0,",
    ...e.values.map((value) => `        [WireName(${quote(value)})] ${phpCase(value)},`),
    "    }",
  ];
}

function renderModel(model: Model): string[] {
  const props = model.fields.map((f) => ({ ...f, property: propertyName(f.name, model.name) }));
  return [
    "",
    `    public sealed class ${model.name} : IJsonModel`,
    "    {",
    `        private static readonly HashSet<string> Known = new HashSet<string> { ${props.map((f) => quote(f.name)).join(", ")} };`,
    ...props.flatMap((f) => [
      "",
      `        /// <summary><c>${f.name}</c>${f.required ? "" : " (optional)"}${f.nullable ? ", may be null" : ""}.</summary>`,
      `        public ${csharpTypeOf(f.type)} ${f.property} { get; set; }`,
    ]),
    "",
    '        /// <summary>Fields this version does not know (a newer server\'s), and enum values it does not know; written back by <see cref="ToJson"/>.</summary>',
    "        public JsonObject AdditionalProperties { get; } = new JsonObject();",
    "",
    `        public static ${model.name} FromJson(JsonObject json)`,
    "        {",
    "            if (json == null) return null;",
    `            var model = new ${model.name}();`,
    ...props.map((f) =>
      f.type.kind === "enum"
        ? `            model.${f.property} = ModelJson.ReadEnum<${f.type.name}>(json, ${quote(f.name)}, model.AdditionalProperties);`
        : `            model.${f.property} = ${csharpRead(f.type, `ModelJson.Get(json, ${quote(f.name)})`)};`,
    ),
    "            ModelJson.KeepUnknown(json, model.AdditionalProperties, Known);",
    "            return model;",
    "        }",
    "",
    "        public JsonObject ToJson()",
    "        {",
    "            var json = new JsonObject();",
    ...props.map((f) => `            ModelJson.Put(json, ${quote(f.name)}, ${f.property}, ${f.required});`),
    "            foreach (var pair in AdditionalProperties) json[pair.Key] = pair.Value;",
    "            return json;",
    "        }",
    "    }",
  ];
}

export function renderDotnetModels(table: OperationTable): string {
  return [
    `// <auto-generated>${GENERATED_NOTICE}</auto-generated>`,
    "using System.Collections.Generic;",
    "",
    "// Their own namespace: a model may share a name with the client's classes (the Webhook model, the Webhook verifier).",
    "namespace Warehouse.Api.Models",
    "{",
    ...table.enums.flatMap(renderEnum),
    ...table.models.flatMap(renderModel),
    "}",
    "",
  ].join("\n");
}
