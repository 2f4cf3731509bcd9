import type { operations, paths } from "../../clients/typescript/src/generated/schema";
import type { DataOf } from "../../clients/typescript/src/types";

// Response types for `call`, looked up from the request's method and path in the OpenAPI document's
// generated types, so `call("GET", `/orders/${id}`)` is typed as the order without naming a type.

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type Template = keyof paths;
type Relative<T> = T extends `/api/v1${infer R}` ? R : never;
type OperationAt<T extends Template, M extends Method> = paths[T][Lowercase<M> & keyof paths[T]];
type Has<T extends Template, M extends Method> =
  OperationAt<T, M> extends { responses: unknown } ? true : false;

/** "/orders/{id}" -> `/orders/${string}` */
type Pattern<P extends string> = P extends `${infer A}{${string}}${infer B}`
  ? `${A}${string}${Pattern<B>}`
  : P;

/** Every path (with or without a query) that `M` may be sent to. */
export type KnownPath<M extends Method> = {
  [T in Template]: Has<T, M> extends true
    ? Pattern<Relative<T>> | `${Pattern<Relative<T>>}?${string}`
    : never;
}[Template];

type WithoutQuery<P extends string> = P extends `${infer Path}?${string}` ? Path : P;
type Segment<S extends string> = S extends `{${string}}` ? string : S;
type Segments<P extends string> = P extends `/${infer H}/${infer R}`
  ? [Segment<H>, ...Segments<`/${R}`>]
  : P extends `/${infer L}`
    ? [Segment<L>]
    : [];
type Matches<A, B> = A extends [infer A1, ...infer AR]
  ? B extends [infer B1, ...infer BR]
    ? A1 extends B1
      ? Matches<AR, BR>
      : false
    : false
  : B extends []
    ? true
    : false;
type AllLiteral<S> = S extends [infer H, ...infer R] ? (string extends H ? false : AllLiteral<R>) : true;

type Candidates<M extends Method, P extends string> = {
  [T in Template]: Has<T, M> extends true
    ? Matches<Segments<WithoutQuery<P>>, Segments<Relative<T>>> extends true
      ? T
      : never
    : never;
}[Template];
type LiteralOnly<C extends Template> = {
  [T in C]: AllLiteral<Segments<Relative<T>>> extends true ? T : never;
}[C];
/** A literal template wins over one with parameters: /users/invitations before /users/{id}. */
type Best<C extends Template> = [LiteralOnly<C>] extends [never] ? C : LiteralOnly<C>;

/** The operation's id, so the client library's `DataOf` reads its success data. */
type OperationIdOf<O> = {
  [K in keyof operations]: [operations[K]] extends [O] ? ([O] extends [operations[K]] ? K : never) : never;
}[keyof operations];

/** The `data` of the success envelope that `M path` answers. */
export type DataAt<M extends Method, P extends string> = P extends `${string}format=csv${string}`
  ? string
  : DataOf<OperationIdOf<OperationAt<Best<Candidates<M, P>>, M>>>;

/** A stock list's items when its product is stocked: levels, not a kit's per-warehouse availability. */
export const levelsIn = (data: DataAt<"GET", "/inventory/stock">) =>
  data.items as Exclude<(typeof data.items)[number], { components: unknown }>[];
