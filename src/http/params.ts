import { z } from "@hono/zod-openapi";

/** `{id}` in a resource's path: a UUID, else 400 before any query runs. */
export const IdParam = z.object({
  id: z
    .uuid("must be a UUID")
    .openapi({ param: { name: "id", in: "path" }, example: "0193a5c1-6f2e-7c4a-9b1d-3e5f7a9c2b4d" }),
});
