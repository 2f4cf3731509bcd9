import { bodyLimit } from "hono/body-limit";
import { AppError } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

// hono's bodyLimit also counts streamed bodies sent without Content-Length.
export const limitBodySize = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new AppError("PAYLOAD_TOO_LARGE", "Request body is larger than 1 MiB");
  },
});
