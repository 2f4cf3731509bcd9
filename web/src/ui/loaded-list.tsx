import type { ComponentChildren } from "preact";
import { Loaded } from "./loaded";
import { Pager } from "./pager";
import type { Load } from "./use-load";

interface List {
  items: readonly unknown[];
  page: number;
  totalPages: number;
  totalCount: number;
}

/**
 * A list as every page shows one once loaded: `empty` when it has no items, else the list (`children`) and,
 * with `onPage`, the pager under it.
 */
export function LoadedList<L extends List>({
  load,
  empty,
  onPage,
  children,
}: {
  load: Load<L>;
  empty?: string;
  onPage?: (page: number) => void;
  children: (list: L) => ComponentChildren;
}) {
  return (
    <Loaded load={load}>
      {(list) =>
        empty !== undefined && list.items.length === 0 ? (
          <p>{empty}</p>
        ) : (
          <>
            {children(list)}
            {onPage && (
              <Pager
                page={list.page}
                totalPages={list.totalPages}
                totalCount={list.totalCount}
                onPage={onPage}
              />
            )}
          </>
        )
      }
    </Loaded>
  );
}
