import { z } from "@hono/zod-openapi";

/** `{id}` in a resource's path: a UUID, else 400 before any query runs. */
export const IdParam = z.object({
  id: z.uuid("must be a UUID").openapi({ param: { name: "id", in: "path" } }),
});
