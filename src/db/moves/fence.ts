import { AppError } from "../../http/errors";
import { violated } from "../batch";

/**
 * A write refused by a moving tenant's fence (the move triggers' `tenant_fenced`): the batch was rolled
 * back whole, so the client retries; by then the directory places the tenant on its new shard.
 */
export function fencedWrite(error: unknown): AppError | undefined {
  if (!violated(error, "tenant_fenced")) return undefined;
  return new AppError("SERVICE_UNAVAILABLE", "This tenant is moving to another database: retry in a moment", {
    headers: { "Retry-After": "1" },
  });
}
