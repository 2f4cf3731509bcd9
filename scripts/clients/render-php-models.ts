// Renders the PHP client's models (#50): a class per model with readonly typed properties under the API's field names
// (`$product->sku`), built by `fromArray` from the decoded JSON, which each keeps whole (`jsonSerialize()`,
// `toArray()`, `extra()` for the fields a newer server added, and `$product['sku']` reading the JSON as before);
// an abstract class per tagged union whose `fromArray` returns the variant its tag names; one backed enum per enum
// (a value a newer server added reads null, the JSON keeps it). Decided in docs/decisions/clients.md.

import type { EnumType, Model, ModelField, TypeRef, UnionType } from "./model-table.ts";
import { GENERATED_NOTICE } from "./names.ts";
import type { OperationTable } from "./operation-table.ts";

export const PHP_GENERATED_DIR = "clients/php/src/Generated";

// PHP's reserved words (case-insensitive) among possible schema names: such a class takes a `Record` suffix.
const RESERVED = new Set([
  "return",
  "list",
  "array",
  "class",
  "function",
  "print",
  "echo",
  "match",
  "enum",
  "parent",
  "self",
  "static",
  "object",
  "string",
  "int",
  "float",
  "bool",
  "mixed",
  "void",
  "null",
  "true",
  "false",
  "iterable",
  "callable",
  "never",
]);

/** A schema's PHP class name: `Return` -> `ReturnRecord`. */
export const phpClass = (name: string) => (RESERVED.has(name.toLowerCase()) ? `${name}Record` : name);

const quote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** The PHPDoc type of a value: models and unions by class, enums by enum, lists and maps of them. */
export function phpTypeOf(type: TypeRef): string {
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
      return phpClass(type.name);
    case "enum":
      return `${phpClass(type.name)}|null`; // null: a value a newer server added
    case "array":
      return `list<${phpTypeOf(type.items)}>`;
    case "map":
      return `array<string, ${phpTypeOf(type.values)}>`;
  }
}

/** The classes (models, unions, enums) a type names, which a file outside `Generated` imports. */
export function classesIn(type: TypeRef | null): string[] {
  if (!type) return [];
  if (type.kind === "model" || type.kind === "union" || type.kind === "enum") return [phpClass(type.name)];
  if (type.kind === "array") return classesIn(type.items);
  if (type.kind === "map") return classesIn(type.values);
  return [];
}

/** The declared (native) type of a property. */
function nativeType(f: ModelField): string {
  const strict = f.required && !f.nullable;
  switch (f.type.kind) {
    case "any":
      return "mixed";
    case "enum":
      return `?${phpClass(f.type.name)}`;
    case "number":
      return strict ? "int|float" : "int|float|null";
    case "array":
    case "map":
      return strict ? "array" : "?array";
    default: {
      const name =
        f.type.kind === "model" || f.type.kind === "union"
          ? phpClass(f.type.name)
          : nativeScalar(f.type.kind);
      return strict ? name : `?${name}`;
    }
  }
}

const nativeScalar = (kind: string) =>
  ({ string: "string", integer: "int", boolean: "bool" })[kind] ?? "mixed";

/** The expression converting `value` (decoded JSON known to be present) to the type; null when it is the value. */
function converter(type: TypeRef, value: string): string | null {
  switch (type.kind) {
    case "model":
    case "union":
      return `${phpClass(type.name)}::fromArray(${value})`;
    case "enum":
      return `${phpClass(type.name)}::tryFrom(${value})`;
    case "array":
    case "map": {
      const inner = converter(type.kind === "array" ? type.items : type.values, "$v");
      return inner ? `array_map(fn ($v) => ${inner}, ${value})` : null;
    }
    default:
      return null;
  }
}

/** The statement reading field `f` from `$data`. */
function read(f: ModelField): string {
  const raw = `$data[${quote(f.name)}]`;
  const convert = converter(f.type, raw);
  const strict = f.required && !f.nullable;
  if (!convert) return `        $this->${f.name} = ${strict ? raw : `${raw} ?? null`};`;
  return strict
    ? `        $this->${f.name} = ${convert};`
    : `        $this->${f.name} = isset(${raw}) ? ${convert} : null;`;
}

function property(f: ModelField): string[] {
  const doc = phpTypeOf(f.type);
  const described = `${f.name}${f.required ? "" : " (optional)"}${f.nullable ? ", may be null" : ""}`;
  const needsVar = f.type.kind === "array" || f.type.kind === "map" || f.type.kind === "number";
  const strict = f.required && !f.nullable;
  return [
    "",
    needsVar
      ? `    /** @var ${strict || f.type.kind === "enum" ? doc : `${doc}|null`} \`${described}\` */`
      : `    /** \`${described}\` */`,
    `    public readonly ${nativeType(f)} $${f.name};`,
  ];
}

const header = [
  "<?php",
  "",
  `// ${GENERATED_NOTICE}`,
  "",
  "declare(strict_types=1);",
  "",
  "namespace Warehouse\\Api\\Generated;",
  "",
];

/**
 * A model: a union's variant extends the union's class (the fields every variant has), a derived model its base
 * model (`base`), which is then not final; each reads only the fields it declares.
 */
function renderModel(
  model: Model,
  union: UnionType | undefined,
  base: Model | undefined,
  extended: boolean,
): string {
  const inherited = new Set(union?.common ?? base?.fields.map((f) => f.name) ?? []);
  const own = model.fields.filter((f) => !inherited.has(f.name));
  const parent = union?.name ?? base?.name;
  return [
    ...header,
    ...(parent ? [] : ["use Warehouse\\Api\\Model;", ""]),
    `${extended ? "" : "final "}class ${phpClass(model.name)} extends ${parent ? phpClass(parent) : "Model"}`,
    "{",
    `    public const FIELDS = [${model.fields.map((f) => quote(f.name)).join(", ")}];`,
    ...own.flatMap(property),
    "",
    "    /** @param array<string, mixed> $data the API's JSON, decoded */",
    "    public function __construct(array $data)",
    "    {",
    "        parent::__construct($data);",
    ...own.map(read),
    "    }",
    "}",
    "",
  ].join("\n");
}

function renderUnion(union: UnionType, fallback: Model): string {
  const common = fallback.fields.filter((f) => union.common.includes(f.name));
  return [
    ...header,
    "use Warehouse\\Api\\Model;",
    "",
    `/** One class per \`${union.discriminator}\`; \`${phpClass(union.fallback)}\` for one this version does not know. */`,
    `abstract class ${phpClass(union.name)} extends Model`,
    "{",
    "    private const VARIANTS = [",
    ...union.variants.map((v) => `        ${quote(v.tag)} => ${phpClass(v.model)}::class,`),
    "    ];",
    ...common.flatMap(property),
    "",
    "    /** @param array<string, mixed> $data the API's JSON, decoded */",
    "    public function __construct(array $data)",
    "    {",
    "        parent::__construct($data);",
    ...common.map(read),
    "    }",
    "",
    `    /** The class its \`${union.discriminator}\` names (called on a variant: that variant). */`,
    "    public static function fromArray(array $data): static",
    "    {",
    "        if (static::class !== self::class) {",
    "            return new static($data);",
    "        }",
    `        $class = self::VARIANTS[$data[${quote(union.discriminator)}] ?? ''] ?? ${phpClass(union.fallback)}::class;`,
    "        return new $class($data);",
    "    }",
    "}",
    "",
  ].join("\n");
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
    ...header,
    `enum ${phpClass(e.name)}: string`,
    "{",
    ...e.values.map((value) => `    case ${phpCase(value)} = ${quote(value)};`),
    "}",
    "",
  ].join("\n");
}

export function renderPhpModels(table: OperationTable): Map<string, string> {
  const baseOf = new Map(
    table.unions.flatMap((union) =>
      [...union.variants.map((v) => v.model), union.fallback].map((model): [string, UnionType] => [
        model,
        union,
      ]),
    ),
  );
  const file = (name: string, text: string): [string, string] => [
    `${PHP_GENERATED_DIR}/${phpClass(name)}.php`,
    text,
  ];
  const models = new Map(table.models.map((m) => [m.name, m]));
  const extended = new Set(table.models.flatMap((m) => (m.base ? [m.base] : [])));
  return new Map([
    ...table.enums.map((e) => file(e.name, renderEnum(e))),
    ...table.models.map((m) =>
      file(
        m.name,
        renderModel(m, baseOf.get(m.name), m.base ? models.get(m.base) : undefined, extended.has(m.name)),
      ),
    ),
    ...table.unions.map((u) => {
      const fallback = table.models.find((m) => m.name === u.fallback);
      if (!fallback) throw new Error(`${u.name}: no model ${u.fallback}`);
      return file(u.name, renderUnion(u, fallback));
    }),
  ]);
}
