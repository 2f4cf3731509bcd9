import { AppError } from "../../http/errors";
import { answerFor } from "../constraint-errors";

/**
 * A call refused by a moving tenant's fence (the move triggers' `tenant_fenced`) fails with its answer, 503: the
 * batch was rolled back whole, so the client retries; by then the directory places the tenant on its new shard.
 */
export const answeringFencedWrites = <T>(call: Promise<T>): Promise<T> =>
  call.catch((error: unknown) => {
    throw answerFor(error, {
      tenant_fenced: () =>
        new AppError("SERVICE_UNAVAILABLE", "This tenant is moving to another database: retry in a moment", {
          headers: { "Retry-After": "1" },
        }),
    });
  });
