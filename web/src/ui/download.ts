import { ApiError } from "../api/client";

/**
 * Saves a file the API answers (a report's CSV, a package's label) under `name`. The call needs the access token,
 * so the page fetches it and hands the browser a `blob:` URL of this origin to save (a plain link could not carry
 * the Authorization header). Text answers are saved as `type`; binary ones (`parseAs: "blob"`) keep their own.
 */
export async function saveFile(
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
  name: string,
  type = "text/csv",
) {
  const { data, response } = await call;
  if (!response.ok || !(typeof data === "string" || data instanceof Blob)) {
    throw new ApiError(
      `The download failed (${response.status} ${response.statusText})`.trim(),
      response.status,
    );
  }
  saveBlob(data instanceof Blob ? data : new Blob([data], { type }), name);
}

/** Hands the browser `blob` to save as `name` (a download the page made itself, or fetched). */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
