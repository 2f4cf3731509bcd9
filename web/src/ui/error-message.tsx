import { ApiError } from "../api/client";

/** An error as the API worded it: its message, then one line per problem when there are several. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const details = error instanceof ApiError ? error.errors.filter((line) => line !== message) : [];
  return (
    <div class="alert alert-error" role="alert">
      <p>{message}</p>
      {details.length > 0 && (
        <ul>
          {details.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
