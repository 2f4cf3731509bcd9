import type { z } from "@hono/zod-openapi";

// A rule across a body's fields (exactly one of two, this field only with that one) is a check zod runs and a
// few JSON Schema keywords the OpenAPI document states. `withRules` attaches both from one definition, so the
// document cannot promise what the server refuses nor refuse what it takes; a rule JSON Schema cannot state (a
// transfer's two locations differ) is said in the field's description instead.

/** JSON Schema keywords of OpenAPI 3.1 that state a rule: oneOf, anyOf, not, dependentRequired, properties. */
export type RuleSchema = Record<string, unknown>;

/** A rule across an object's fields: the check the server runs and the same rule as the document states it. */
export interface FieldRule<T> {
  check: (value: T, ctx: z.RefinementCtx) => void;
  states: RuleSchema;
}

/** `schema` checking every rule and stating it (one rule's keywords as they are, several under `allOf`). */
export function withRules<S extends z.ZodType>(schema: S, ...rules: FieldRule<z.output<S>>[]): S {
  const checked = rules.reduce<S>((s, rule) => s.superRefine(rule.check) as S, schema);
  const [only, ...more] = rules;
  const states = only && more.length === 0 ? only.states : { allOf: rules.map((rule) => rule.states) };
  // The keywords are JSON Schema 2020-12 ones (dependentRequired too), which OpenAPI 3.1 schemas take as they are.
  return checked.openapi(states as { description?: string }) as S;
}

/** Exactly one of `first` and `second`: neither or both is a 400 naming `first`. */
export function exactlyOne<T extends Record<string, unknown>>(
  first: keyof T & string,
  second: keyof T & string,
): FieldRule<T> {
  return {
    check: (value, ctx) => {
      if ((value[first] === undefined) === (value[second] === undefined))
        ctx.addIssue({
          code: "custom",
          path: [first],
          message: `give exactly one of ${first} and ${second}`,
        });
    },
    states: { oneOf: [{ required: [first] }, { required: [second] }] },
  };
}

/** `field` only with `other`: alone it is a 400 naming it. */
export function onlyWith<T extends Record<string, unknown>>(
  field: keyof T & string,
  other: keyof T & string,
): FieldRule<T> {
  return {
    check: (value, ctx) => {
      if (value[field] !== undefined && value[other] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: `only with ${other}` });
    },
    states: { dependentRequired: { [field]: [other] } },
  };
}

/** At most one of `fields`: two is a 400 naming the last (`give a or b, not both`). */
export function notBoth<T extends Record<string, unknown>>(
  first: keyof T & string,
  second: keyof T & string,
): FieldRule<T> {
  return {
    check: (value, ctx) => {
      if (value[first] !== undefined && value[second] !== undefined)
        ctx.addIssue({ code: "custom", path: [second], message: `give ${first} or ${second}, not both` });
    },
    states: { not: { required: [first, second] } },
  };
}
