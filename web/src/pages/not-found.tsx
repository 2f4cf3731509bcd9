import { useDocumentTitle } from "../ui/title";

export function NotFound() {
  useDocumentTitle("Not found");
  return (
    <>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        There is nothing here, or your role cannot see it. <a href="/app/">Back to the dashboard</a>
      </p>
    </>
  );
}
