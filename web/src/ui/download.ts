import { ApiError } from "../api/client";

/**
 * Saves a CSV answer of the API as a file. The call needs the access token, so the page fetches it and hands the
 * browser a `blob:` URL of this origin to save (a plain link could not carry the Authorization header).
 */
export async function saveCsv(
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
  name: string,
) {
  const { data, response } = await call;
  if (!response.ok || typeof data !== "string") {
    throw new ApiError(
      `The download failed (${response.status} ${response.statusText})`.trim(),
      response.status,
    );
  }
  const url = URL.createObjectURL(new Blob([data], { type: "text/csv" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
