export { WarehouseClient } from "./client.js";
export {
  ApiConnectionError,
  ApiTimeoutError,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ValidationError,
  WarehouseApiError,
} from "./errors.js";
export { CursorFeed, type CursorPage } from "./feed.js";
export type { components, operations, paths } from "./generated/schema.js";
export type { ImportFileOptions, ImportType, Job, WaitOptions } from "./jobs.js";
export type { CallOptions, WarehouseClientOptions } from "./transport.js";
export type { BodyOf, DataOf, ItemOf, QueryOf } from "./types.js";
export { type Event, verifyWebhook, type WebhookEvent, WebhookVerificationError } from "./webhooks.js";
