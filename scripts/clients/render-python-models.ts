// Renders clients/python/warehouse_api/models.py from the table's models: a dataclass per model (snake_case
// attributes, `from_dict` from the API's JSON, `to_dict` back to it, unknown fields kept) and an Enum per enum.

import type { EnumType, Model, ModelField, TypeRef, UnionType } from "./model-table.ts";
import { GENERATED_NOTICE } from "./names.ts";
import type { OperationTable } from "./operation-table.ts";
import { pythonName } from "./render-python.ts";

const quote = JSON.stringify;

/** The annotation of a value of this type (models and enums from this module). */
export function pythonTypeOf(type: TypeRef, prefix = ""): string {
  switch (type.kind) {
    case "string":
      return "str";
    case "integer":
      return "int";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "any":
      return "Any";
    case "model":
    case "union":
      return `${prefix}${type.name}`;
    case "enum":
      return `Union[${prefix}${type.name}, str]`;
    case "array":
      return `List[${pythonTypeOf(type.items, prefix)}]`;
    case "map":
      return `Dict[str, ${pythonTypeOf(type.values, prefix)}]`;
  }
}

/** The converter from the API's JSON to this type, or null when the JSON is the value. */
export function pythonConverter(type: TypeRef, prefix = ""): string | null {
  switch (type.kind) {
    case "model":
      return `_m.model(${prefix}${type.name})`;
    case "union":
      return `${prefix}${unionParser(type.name)}`;
    case "enum":
      return `_m.enum(${prefix}${type.name})`;
    case "array": {
      const item = pythonConverter(type.items, prefix);
      return item ? `_m.list_of(${item})` : null;
    }
    case "map": {
      const value = pythonConverter(type.values, prefix);
      return value ? `_m.map_of(${value})` : null;
    }
    default:
      return null;
  }
}

/** `WebhookEvent` -> `parse_webhook_event`: the function reading a union's JSON as its variant's class. */
export const unionParser = (name: string) => `parse_${pythonName(name)}`;

/** `in-transit` -> `IN_TRANSIT`, `read:products` -> `READ_PRODUCTS`, `2fa` -> `V_2FA`. */
export function enumMember(value: string): string {
  const name = value
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  return /^[A-Z]/.test(name) ? name : `V_${name}`;
}

function renderEnum(e: EnumType): string[] {
  return [
    "",
    "",
    `class ${e.name}(str, Enum):`,
    ...e.values.map((value) => `    ${enumMember(value)} = ${quote(value)}`),
  ];
}

const annotation = (f: ModelField) => {
  const base = f.literal === undefined ? pythonTypeOf(f.type) : `Literal[${quote(f.literal)}]`;
  return f.required && !f.nullable ? base : `Optional[${base}]`;
};

/**
 * A dataclass; a derived model (`base`) subclasses its base's and declares only its own fields, each with a default
 * (a dataclass's fields without one cannot follow the base's that have one; `from_dict` always passes them all).
 */
function renderModel(model: Model, base: Model | undefined): string[] {
  // Required fields first: a dataclass's fields without a default come before those with one.
  const ordered = [...model.fields.filter((f) => f.required), ...model.fields.filter((f) => !f.required)];
  const inherited = new Set(base?.fields.map((f) => f.name) ?? []);
  const own = ordered.filter((f) => !inherited.has(f.name));
  const attribute = (f: ModelField) => pythonName(f.name);
  const read = (f: ModelField) => {
    const convert = pythonConverter(f.type);
    const raw = `data.get(${quote(f.name)})`;
    return convert ? `${convert}(${raw})` : raw;
  };
  return [
    "",
    "",
    "@dataclass",
    `class ${model.name}(${base ? base.name : "_m.Model"}):`,
    ...own.map((f) => `    ${attribute(f)}: ${annotation(f)}${f.required && !base ? "" : " = None"}`),
    ...(base
      ? []
      : ["    extra_fields: Dict[str, Any] = _m.field(default_factory=dict, repr=False, compare=False)"]),
    "",
    `    _wire: ClassVar[Dict[str, str]] = {${ordered.map((f) => `${quote(attribute(f))}: ${quote(f.name)}`).join(", ")}}`,
    `    _required: ClassVar[frozenset] = frozenset({${model.fields
      .filter((f) => f.required)
      .map((f) => quote(f.name))
      .join(", ")}})`,
    "",
    "    @classmethod",
    `    def from_dict(cls, data: Mapping[str, Any]) -> "${model.name}":`,
    "        return cls(",
    ...ordered.map((f) => `            ${attribute(f)}=${read(f)},`),
    "            extra_fields=_m.extra(data, cls._wire),",
    "        )",
  ];
}

/** After the classes (an alias is evaluated at once): the union's type, its variants by tag, its parser. */
function renderUnion(union: UnionType): string[] {
  const variants = `_${pythonName(union.name).toUpperCase()}_VARIANTS`;
  return [
    "",
    "",
    `${union.name} = Union[${[...union.variants.map((v) => v.model), union.fallback].join(", ")}]`,
    `"""One class per \`\`${union.discriminator}\`\` (\`\`isinstance\`\` tells them apart); \`\`${union.fallback}\`\` for one this version does not know."""`,
    "",
    `${variants}: Dict[str, Any] = {${union.variants.map((v) => `${quote(v.tag)}: ${v.model}`).join(", ")}}`,
    "",
    "",
    `def ${unionParser(union.name)}(data: Any) -> ${union.name}:`,
    `    """The class its \`\`${union.discriminator}\`\` names, read from JSON (\`\`${union.fallback}\`\` for a tag this version does not know)."""`,
    `    return _m.variant(data, ${quote(union.discriminator)}, ${variants}, ${union.fallback})`,
  ];
}

export function renderPythonModels(table: OperationTable): string {
  const models = new Map(table.models.map((m) => [m.name, m]));
  return [
    `# ${GENERATED_NOTICE}`,
    "# flake8: noqa",
    '"""Every model and enum of the API, generated from its OpenAPI document."""',
    "",
    "from __future__ import annotations",
    "",
    "from dataclasses import dataclass",
    "from enum import Enum",
    "from typing import Any, ClassVar, Dict, List, Literal, Mapping, Optional, Union",
    "",
    "from . import _model as _m",
    "",
    `__all__ = [${[
      ...[...table.enums, ...table.models, ...table.unions].map((t) => t.name),
      ...table.unions.map((u) => unionParser(u.name)),
    ]
      .map((name) => quote(name))
      .join(", ")}]`,
    ...table.enums.flatMap(renderEnum),
    // A base class before the classes derived from it.
    ...[...table.models]
      .sort((a, b) => Number(a.base !== undefined) - Number(b.base !== undefined))
      .flatMap((m) => renderModel(m, m.base ? models.get(m.base) : undefined)),
    ...table.unions.flatMap(renderUnion),
    "",
  ].join("\n");
}
