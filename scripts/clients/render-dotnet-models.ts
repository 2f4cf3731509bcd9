// Renders clients/dotnet/src/Generated/Models.g.cs: a class per model (PascalCase properties, `FromJson` from the
// API's JSON, `ToJson` back to it, fields a newer server adds kept in `AdditionalProperties`) and an enum per enum
// (`Unknown` first, each member naming its JSON value). Value-typed properties are nullable: a field the server
// leaves out reads null, never a default that looks like data. C# 7.2: Debian's Mono compiler builds it here.

import type { EnumType, Model, TypeRef, UnionType } from "./model-table.ts";
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
    case "union":
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
    case "union":
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

type Property = Model["fields"][number] & { property: string };

const declare = (f: Property) => [
  "",
  `        /// <summary><c>${f.name}</c>${f.required ? "" : " (optional)"}${f.nullable ? ", may be null" : ""}.</summary>`,
  `        public ${csharpTypeOf(f.type)} ${f.property} { get; set; }`,
];

const ADDITIONAL_PROPERTIES = [
  "",
  '        /// <summary>Fields this version does not know (a newer server\'s), and enum values it does not know; written back by <see cref="ToJson"/>.</summary>',
  "        public JsonObject AdditionalProperties { get; } = new JsonObject();",
];

/**
 * A model; a union's variant derives from the union's class, which declares the fields every variant has, and a
 * derived model (`base`) from its base model, which is then not sealed and lets `ToJson` be overridden.
 */
function renderModel(
  model: Model,
  union: UnionType | undefined,
  baseModel: Model | undefined,
  extended: boolean,
): string[] {
  const props = model.fields.map((f) => ({ ...f, property: propertyName(f.name, model.name) }));
  const inherited = new Set(union?.common ?? baseModel?.fields.map((f) => f.name) ?? []);
  const base = union ?? baseModel;
  return [
    "",
    `    public ${extended ? "" : "sealed "}class ${model.name} : ${base ? base.name : "IJsonModel"}`,
    "    {",
    `        private static readonly HashSet<string> Known = new HashSet<string> { ${props.map((f) => quote(f.name)).join(", ")} };`,
    ...props.filter((f) => !inherited.has(f.name)).flatMap(declare),
    ...(base ? [] : ADDITIONAL_PROPERTIES),
    "",
    `        public static ${base ? "new " : ""}${model.name} FromJson(JsonObject json)`,
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
    `        public ${base ? "override " : extended ? "virtual " : ""}JsonObject ToJson()`,
    "        {",
    "            var json = new JsonObject();",
    ...props.map((f) => `            ModelJson.Put(json, ${quote(f.name)}, ${f.property}, ${f.required});`),
    "            foreach (var pair in AdditionalProperties) json[pair.Key] = pair.Value;",
    "            return json;",
    "        }",
    "    }",
  ];
}

/**
 * A union's abstract base: the fields every variant has, and `FromJson` reading the JSON as the class its tag names
 * (`switch (ev) { case OrderCreatedEvent created: ... }`), the fallback for a tag this version does not know.
 */
function renderUnion(union: UnionType, model: Model): string[] {
  const props = model.fields
    .filter((f) => union.common.includes(f.name))
    .map((f) => ({ ...f, property: propertyName(f.name, union.name) }));
  return [
    "",
    `    /// <summary>One class per <c>${union.discriminator}</c>; <see cref="${union.fallback}"/> for one this version does not know.</summary>`,
    `    public abstract class ${union.name} : IJsonModel`,
    "    {",
    ...props.flatMap(declare),
    ...ADDITIONAL_PROPERTIES,
    "",
    "        public abstract JsonObject ToJson();",
    "",
    `        public static ${union.name} FromJson(JsonObject json)`,
    "        {",
    "            if (json == null) return null;",
    `            switch (ModelJson.ToStringValue(ModelJson.Get(json, ${quote(union.discriminator)})))`,
    "            {",
    ...union.variants.map((v) => `                case ${quote(v.tag)}: return ${v.model}.FromJson(json);`),
    `                default: return ${union.fallback}.FromJson(json);`,
    "            }",
    "        }",
    "    }",
  ];
}

export function renderDotnetModels(table: OperationTable): string {
  const baseOf = new Map(
    table.unions.flatMap((union) =>
      [...union.variants.map((v) => v.model), union.fallback].map((model): [string, UnionType] => [
        model,
        union,
      ]),
    ),
  );
  const models = new Map(table.models.map((m) => [m.name, m]));
  const extended = new Set(table.models.flatMap((m) => (m.base ? [m.base] : [])));
  return [
    `// <auto-generated>${GENERATED_NOTICE}</auto-generated>`,
    "using System.Collections.Generic;",
    "",
    "// Their own namespace: a model may share a name with the client's classes (the Webhook model, the Webhook verifier).",
    "namespace Warehouse.Api.Models",
    "{",
    ...table.enums.flatMap(renderEnum),
    ...table.unions.flatMap((union) => {
      const fallback = table.models.find((m) => m.name === union.fallback);
      if (!fallback) throw new Error(`${union.name}: no model ${union.fallback}`);
      return renderUnion(union, fallback);
    }),
    ...table.models.flatMap((model) =>
      renderModel(
        model,
        baseOf.get(model.name),
        model.base ? models.get(model.base) : undefined,
        extended.has(model.name),
      ),
    ),
    "}",
    "",
  ].join("\n");
}
