import { useEffect } from "preact/hooks";

/** The tab's title names the page (screen readers announce it on navigation). */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Warehouse`;
  }, [title]);
}
