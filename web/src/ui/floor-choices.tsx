import type { ComponentChildren } from "preact";
import { Loaded } from "./loaded";
import { type Load, useLoad } from "./use-load";

/** The first pages (up to 100 each) of a list for each status, in the order given, as one list. */
export function useStatusPages<S, T>(
  statuses: readonly S[],
  page: (status: S) => Promise<{ items: T[] }>,
): Load<T[]> {
  return useLoad(() => Promise.all(statuses.map(page)).then((pages) => pages.flatMap((p) => p.items)), []);
}

export interface FloorChoice {
  id: string;
  href: string;
  title: string;
  detail: ComponentChildren;
}

/** What a floor screen can work on next, as large targets a thumb can hit (or `empty` when there is nothing). */
export function FloorChoices<T>({
  load,
  empty,
  choice,
}: {
  load: Load<T[]>;
  empty: string;
  choice: (item: T) => FloorChoice;
}) {
  return (
    <Loaded load={load}>
      {(items) =>
        items.length === 0 ? (
          <p>{empty}</p>
        ) : (
          <ul class="floor-choices">
            {items.map(choice).map(({ id, href, title, detail }) => (
              <li key={id}>
                <a class="button floor-choice" href={href}>
                  <strong>{title}</strong>
                  <span>{detail}</span>
                </a>
              </li>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}
