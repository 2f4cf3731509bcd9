// The models of the served OpenAPI document, reduced to what a typed client renders: named records with typed
// fields, and string enums. Every component schema becomes a model or an enum under its own name; an object or
// enum declared inline gets its parent's name plus the field's (`Product.dimensions` -> `ProductDimensions`), and
// an operation's inline response data `<OperationId>Result`. The rules are few so any document reduces:
// - `allOf`: one model with the fields of every part;
// - `oneOf` with a `discriminator` over named object schemas (an event: one schema per type): a union, which
//   every client renders as its own kind of tagged union (a class per variant), plus the variants merged into
//   `Unknown<Name>` for a tag this version does not know (a newer server's);
// - other `oneOf`/`anyOf`: a `null` variant makes the value nullable; object variants ("either warehouseId or
//   locationIds") merge into one model whose fields are required only where every variant requires them;
//   anything else is `any` (the JSON as parsed);
// - an `allOf` whose first part is a `$ref` to a model, the other parts adding fields without changing the base's
//   (an order event's data: the `Order` and `shipments`), is a model derived from that one: every client renders it
//   as a subclass, so an event's order is an `Order`;
// - keywords that only state a rule across an object's own fields (`oneOf`/`anyOf`/`allOf`/`not` of `required`
//   lists, `dependentRequired`: "exactly one of quantity or packaging with packs", "an import needs uploadId")
//   are dropped before the rest: the model is the object's fields, each optional unless the object requires it,
//   and the server (and the document) refuse a combination the rule forbids;
// - a one-value enum (a discriminator's tag) is a plain string; enums with the same values share one type;
// - an object with only `additionalProperties` is a map; without properties at all it is `any`.
// Clients keep the fields they do not know (a newer server's), so the reduction never loses data.

export type TypeRef =
  | { kind: "string" | "integer" | "number" | "boolean" | "any" }
  | { kind: "model"; name: string }
  | { kind: "union"; name: string }
  | { kind: "enum"; name: string }
  | { kind: "array"; items: TypeRef }
  | { kind: "map"; values: TypeRef };

export interface ModelField {
  name: string;
  type: TypeRef;
  required: boolean;
  nullable: boolean;
  /** The one value a one-value enum allows (a union variant's tag, `"order.created"`). */
  literal?: string;
}

export interface Model {
  name: string;
  /** Every field, the base's first. */
  fields: ModelField[];
  /** The model this one extends (`allOf` of its `$ref` and more fields): its fields come first, unchanged. */
  base?: string;
}

export interface EnumType {
  name: string;
  values: string[];
}

/** A tagged union: the value of `discriminator` names the variant's model. */
export interface UnionType {
  name: string;
  discriminator: string;
  variants: { tag: string; model: string }[];
  /** The model read for a tag this version does not know: every variant's fields merged (`Unknown<Name>`). */
  fallback: string;
  /** The fields every variant and the fallback have, with one type: what a union's base class declares. */
  common: string[];
}

type Schema = Record<string, unknown>;
type Document = { components?: { schemas?: Record<string, Schema> } };

const COMBINATORS = ["oneOf", "anyOf", "allOf"] as const;
const RULE_KEYWORDS = [...COMBINATORS, "not", "dependentRequired", "if", "then", "else"] as const;

/**
 * Whether a part of an object's schema only states a rule across the object's fields: no type or $ref of its
 * own (so no shape), only `required` lists, values of its fields (`properties`) and more such parts.
 */
function statesRule(part: unknown): boolean {
  if (!part || typeof part !== "object" || Array.isArray(part)) return false;
  const schema = part as Schema;
  if ("type" in schema || "$ref" in schema || "items" in schema) return false;
  return (
    COMBINATORS.every((key) => !Array.isArray(schema[key]) || (schema[key] as unknown[]).every(statesRule)) &&
    ["not", "if", "then", "else"].every((key) => !(key in schema) || statesRule(schema[key]))
  );
}

/** `schema` without the keywords that only state a rule across its own fields (when it has `properties`). */
function withoutFieldRules(schema: Schema): Schema {
  if (!schema.properties || typeof schema.properties !== "object") return schema;
  const dropped = RULE_KEYWORDS.filter((key) =>
    key === "dependentRequired"
      ? key in schema
      : Array.isArray(schema[key])
        ? (schema[key] as unknown[]).every(statesRule)
        : key in schema && statesRule(schema[key]),
  );
  if (dropped.length === 0) return schema;
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !(dropped as string[]).includes(key)));
}

/** Whether a schema itself admits null (`type: [..., "null"]`, `nullable`, or a null variant). */
function allowsNull(schema: Schema | undefined): boolean {
  if (!schema) return false;
  if ((Array.isArray(schema.type) && schema.type.includes("null")) || schema.nullable === true) return true;
  const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  return variants?.some((v) => v.type === "null") ?? false;
}

/** The one string a one-value enum allows. */
const literalOf = (schema: Schema | undefined): string | undefined =>
  Array.isArray(schema?.enum) && schema.enum.length === 1 && typeof schema.enum[0] === "string"
    ? schema.enum[0]
    : undefined;

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");

const refName = (ref: string) => ref.replace("#/components/schemas/", "");

// Field names too generic to name an enum alone (`status` of what?): those keep their owner's name.
const GENERIC = new Set(["Status", "Type", "Kind", "State", "Format", "Mode", "Reason"]);

/** `scopes` -> `Scope`, `role` -> `Role`; undefined for a generic name. */
function enumName(field: string): string | undefined {
  const name = pascal(field);
  const singular = name.endsWith("ses") || !name.endsWith("s") ? name : name.slice(0, -1);
  return GENERIC.has(name) || GENERIC.has(singular) ? undefined : singular;
}

/** Builds models and enums while operations ask for the type of their bodies and data. */
export class ModelBuilder {
  readonly models = new Map<string, Model>();
  readonly enums = new Map<string, EnumType>();
  readonly unions = new Map<string, UnionType>();
  /** Each union variant's (and fallback's) union: a model is a variant of at most one, its base class. */
  private readonly variantOf = new Map<string, string>();
  private readonly pending = new Set<string>();
  private readonly doc: Document;

  constructor(doc: Document) {
    this.doc = doc;
    const components = Object.entries(doc.components?.schemas ?? {});
    // Enums first, so an inline enum with the same values takes the component's name, not the other way round.
    for (const [name, schema] of components) if (Array.isArray(schema.enum)) this.component(name);
    for (const [name] of components) this.component(name);
  }

  private component(name: string): TypeRef {
    const schema = this.doc.components?.schemas?.[name];
    if (!schema) throw new Error(`unresolved $ref ${name}`);
    if (this.models.has(name) || this.pending.has(name)) return { kind: "model", name };
    if (this.enums.has(name)) return { kind: "enum", name };
    if (this.unions.has(name)) return { kind: "union", name };
    return this.typeOf(schema, name).type;
  }

  /**
   * The type of a schema; `hint` names the model or enum it declares inline, `short` (a field's own name, like
   * `Role` or `Scope`) names an inline enum when no other type has that name.
   */
  typeOf(given: Schema | undefined, hint: string, short?: string): { type: TypeRef; nullable: boolean } {
    if (!given) return { type: { kind: "any" }, nullable: false };
    const schema = withoutFieldRules(given);
    if (typeof schema.$ref === "string") {
      // A component may itself allow null (`Weight`: `type: [object, null]`), and so every field naming it.
      const target = this.doc.components?.schemas?.[refName(schema.$ref)];
      return { type: this.component(refName(schema.$ref)), nullable: allowsNull(target) };
    }
    const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    const discriminator = (schema.discriminator as { propertyName?: string } | undefined)?.propertyName;
    if (variants && discriminator && variants.every((v) => typeof v.$ref === "string")) {
      return { type: this.taggedUnion(hint, discriminator, variants), nullable: false };
    }
    if (variants) return this.union(variants, hint, schema);
    if (Array.isArray(schema.allOf))
      return { type: this.model(hint, schema.allOf as Schema[], "all"), nullable: false };
    const declared = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const nullable = declared.includes("null") || schema.nullable === true;
    const type = declared.find((t) => t !== "null" && t !== undefined);
    const values = schema.enum as unknown[] | undefined;
    if (Array.isArray(values) && values.length > 1 && values.every((v) => typeof v === "string")) {
      const own = hint in (this.doc.components?.schemas ?? {});
      const name = own || !short || this.taken(short) ? hint : short;
      return { type: this.enumType(name, values as string[], own), nullable };
    }
    if (type === "array") {
      const items = this.typeOf(schema.items as Schema, `${hint}Item`, short).type;
      return { type: { kind: "array", items }, nullable };
    }
    if (type === "object" || schema.properties) {
      if (schema.properties) return { type: this.model(hint, [schema], "all"), nullable };
      const extra = schema.additionalProperties;
      if (extra && typeof extra === "object") {
        return { type: { kind: "map", values: this.typeOf(extra as Schema, `${hint}Value`).type }, nullable };
      }
      return { type: { kind: "any" }, nullable };
    }
    if (type === "string" || type === "integer" || type === "number" || type === "boolean") {
      return { type: { kind: type }, nullable };
    }
    return { type: { kind: "any" }, nullable: true };
  }

  private union(variants: Schema[], hint: string, schema: Schema): { type: TypeRef; nullable: boolean } {
    const isNull = (v: Schema) =>
      v.type === "null" || (Array.isArray(v.enum) && v.enum.length === 1 && v.enum[0] === null);
    const rest = variants.filter((v) => !isNull(v));
    const nullable = rest.length < variants.length || schema.nullable === true;
    if (rest.length === 1) {
      const only = this.typeOf(rest[0], hint);
      return { type: only.type, nullable: nullable || only.nullable };
    }
    const objectLike = rest.every((v) => this.isObject(v));
    if (objectLike && rest.length > 0) return { type: this.model(hint, rest, "any"), nullable };
    const types = rest.map((v) => this.typeOf(v, hint).type);
    const kinds = new Set(types.map((t) => JSON.stringify(t)));
    return { type: kinds.size === 1 && types[0] ? types[0] : { kind: "any" }, nullable };
  }

  /**
   * A tagged union of named object schemas (`$ref`s), each telling its tag by a one-value enum at
   * `discriminator`; also built from outside the components (the document's webhooks).
   */
  taggedUnion(name: string, discriminator: string, variants: Schema[]): TypeRef {
    if (this.unions.has(name)) return { kind: "union", name };
    const members = variants.map((variant) => {
      const model = refName(variant.$ref as string);
      const properties = this.doc.components?.schemas?.[model]?.properties as
        | Record<string, Schema>
        | undefined;
      const tag = literalOf(properties?.[discriminator]);
      if (tag === undefined) throw new Error(`${name}: ${model} names no one-value ${discriminator}`);
      if (this.component(model).kind !== "model") throw new Error(`${name}: ${model} is not an object`);
      return { tag, model };
    });
    const fallback = `Unknown${name}`;
    this.model(fallback, variants, "any");
    const fields = (model: string) => this.models.get(model)?.fields ?? [];
    const common = fields(fallback)
      .filter((field) =>
        members.every(({ model }) =>
          fields(model).some(
            (f) => f.name === field.name && JSON.stringify(f.type) === JSON.stringify(field.type),
          ),
        ),
      )
      .map((field) => field.name);
    for (const model of [...members.map((m) => m.model), fallback]) {
      const other = this.variantOf.get(model);
      if (other && other !== name) throw new Error(`${model} is a variant of both ${other} and ${name}`);
      this.variantOf.set(model, name);
    }
    this.unions.set(name, { name, discriminator, variants: members, fallback, common });
    return { kind: "union", name };
  }

  private isObject(given: Schema): boolean {
    const schema = withoutFieldRules(given);
    if (typeof schema.$ref === "string") {
      const target = this.doc.components?.schemas?.[refName(schema.$ref)];
      return target ? this.isObject(target) : false;
    }
    if (Array.isArray(schema.allOf)) return true;
    const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (variants) return variants.every((v) => v.type === "null" || this.isObject(v));
    return schema.type === "object" || schema.properties !== undefined;
  }

  /** The object schemas of a part: a $ref's target, allOf's parts, a union's variants. */
  private objectParts(given: Schema): { schema: Schema; owner: string | null }[] {
    const schema = withoutFieldRules(given);
    if (typeof schema.$ref === "string") {
      const name = refName(schema.$ref);
      return this.objectParts(this.doc.components?.schemas?.[name] ?? {}).map((part) => ({
        ...part,
        owner: part.owner ?? name,
      }));
    }
    if (Array.isArray(schema.allOf)) return (schema.allOf as Schema[]).flatMap((s) => this.objectParts(s));
    const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (variants) return variants.filter((v) => v.type !== "null").flatMap((s) => this.objectParts(s));
    return [{ schema, owner: null }];
  }

  /**
   * One model from object schemas: `all` (allOf: a field is required when any part requires it) or `any` (a union:
   * required only when every part has and requires it).
   */
  private model(name: string, parts: Schema[], mode: "all" | "any"): TypeRef {
    if (this.models.has(name) || this.pending.has(name)) return { kind: "model", name };
    this.pending.add(name);
    const fields = new Map<string, ModelField>();
    const requiredCount = new Map<string, number>();
    const groups = parts.map((part) => this.objectParts(part));
    for (const group of groups) {
      const requiredHere = new Set<string>();
      for (const { schema, owner } of group) {
        const required = new Set((schema.required as string[] | undefined) ?? []);
        for (const [field, property] of Object.entries((schema.properties as Record<string, Schema>) ?? {})) {
          const typed = this.typeOf(property, `${owner ?? name}${pascal(field)}`, enumName(field));
          const known = fields.get(field);
          if (known && JSON.stringify(known.type) !== JSON.stringify(typed.type))
            known.type = { kind: "any" };
          const literal = literalOf(property);
          fields.set(field, {
            name: field,
            type: known?.type ?? typed.type,
            required: false,
            nullable: (known?.nullable ?? false) || typed.nullable,
            ...(literal !== undefined && (!known || known.literal === literal) ? { literal } : {}),
          });
          if (required.has(field)) requiredHere.add(field);
        }
      }
      for (const field of requiredHere) requiredCount.set(field, (requiredCount.get(field) ?? 0) + 1);
    }
    for (const field of fields.values()) {
      const count = requiredCount.get(field.name) ?? 0;
      field.required = mode === "all" ? count > 0 : count === groups.length;
    }
    this.pending.delete(name);
    const base = mode === "all" ? this.baseOf(parts, [...fields.values()]) : undefined;
    this.models.set(name, { name, fields: [...fields.values()], ...(base ? { base } : {}) });
    return { kind: "model", name };
  }

  /** The model `parts` extend: the first part's `$ref`, when its fields are the merged model's first, unchanged. */
  private baseOf(parts: Schema[], fields: ModelField[]): string | undefined {
    const [first, ...rest] = parts;
    if (typeof first?.$ref !== "string" || rest.some((part) => typeof part.$ref === "string"))
      return undefined;
    const name = refName(first.$ref);
    const base = this.component(name).kind === "model" ? this.models.get(name) : undefined;
    if (!base || this.variantOf.has(name)) return undefined;
    const same = base.fields.every((field, i) => JSON.stringify(fields[i]) === JSON.stringify(field));
    return same ? name : undefined;
  }

  private taken(name: string): boolean {
    return (
      this.models.has(name) ||
      this.enums.has(name) ||
      this.unions.has(name) ||
      name in (this.doc.components?.schemas ?? {})
    );
  }

  /** An enum type; `component` when `name` is the component declaring it. */
  private enumType(name: string, values: string[], component: boolean): TypeRef {
    const same = [...this.enums.values()].find((e) => e.values.join("\u0000") === values.join("\u0000"));
    if (same) return { kind: "enum", name: same.name };
    let unique = name;
    for (let n = 2; !component && this.taken(unique); n++) unique = `${name}${n}`;
    this.enums.set(unique, { name: unique, values });
    return { kind: "enum", name: unique };
  }

  /** Models, enums and unions in name order, so the rendered files are stable. */
  result(): { models: Model[]; enums: EnumType[]; unions: UnionType[] } {
    const byName = <T extends { name: string }>(a: T, b: T) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    return {
      models: [...this.models.values()].sort(byName),
      enums: [...this.enums.values()].sort(byName),
      unions: [...this.unions.values()].sort(byName),
    };
  }
}

export { pascal as modelName };
