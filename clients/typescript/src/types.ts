import type { operations } from "./generated/schema.js";

export type OperationId = keyof operations;
type Parameters<K extends OperationId> = operations[K] extends { parameters: infer P } ? P : never;

/** The query parameters of an operation, as the OpenAPI document declares them. */
export type QueryOf<K extends OperationId> =
  Parameters<K> extends { query?: infer Q } ? NonNullable<Q> : never;

/** The JSON request body of an operation. */
export type BodyOf<K extends OperationId> = operations[K] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;

type SuccessOf<R> = R extends { 200: infer S }
  ? S
  : R extends { 201: infer S }
    ? S
    : R extends { 202: infer S }
      ? S
      : never;

/** What a call returns: the `data` of the success envelope. */
export type DataOf<K extends OperationId> =
  SuccessOf<operations[K]["responses"]> extends {
    content: { "application/json": { data: infer D } };
  }
    ? D
    : never;

/** The item type of a paged operation. */
export type ItemOf<K extends OperationId> = DataOf<K> extends { items: (infer T)[] } ? T : never;

/** Who may call an operation and whether a failed attempt may be repeated (see the operation table). */
export interface OperationMeta {
  operationId: OperationId;
  access: "public" | "credential" | "tenant" | "platform";
  retry: "safe" | "idempotency-key" | "refused-only";
}
