import type { ComponentChildren } from "preact";
import { statusLabel } from "./format";
import { LoadedList } from "./loaded-list";
import { choicesOf, SelectField } from "./select-field";
import { filterFields, useUrlFilters } from "./url-filters";
import { type Load, useLoad } from "./use-load";

interface Page {
  items: readonly unknown[];
  page: number;
  totalPages: number;
  totalCount: number;
}

/**
 * A list page's data: its filters kept in the URL (`keys`), the page `read` for them (again whenever one or the
 * page changes), and whether any filter is set.
 */
export function useFilteredList<K extends string, L extends Page>(
  keys: readonly K[],
  read: (filters: Record<K, string>, page: number) => Promise<L>,
) {
  const filters = useUrlFilters(keys);
  const list = useLoad(
    () => read(filters.values, filters.page),
    [filters.page, ...keys.map((key) => filters.values[key])],
  );
  return { ...filters, list, filtered: keys.some((key) => filters.values[key] !== "") };
}

/**
 * A list page's body: the filter form (`fields`; Apply puts them in the URL, page 1), then the list with its pager,
 * or what is empty: `No <noun> match these filters.` when filtered, else `No <noun> yet.`.
 */
export function FilteredList<L extends Page>({
  noun,
  data,
  fields,
  children,
}: {
  noun: string;
  data: { list: Load<L>; filtered: boolean; show: (next: Record<string, string | number>) => void };
  fields: ComponentChildren;
  children: (list: L) => ComponentChildren;
}) {
  return (
    <>
      <form
        class="filters"
        aria-label={`Filter ${noun}`}
        onSubmit={(event) => data.show({ ...filterFields(event), page: 1 })}
      >
        {fields}
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <LoadedList
        load={data.list}
        empty={data.filtered ? `No ${noun} match these filters.` : `No ${noun} yet.`}
        onPage={(page) => data.show({ page })}
      >
        {children}
      </LoadedList>
    </>
  );
}

/** A list's status filter: any status, or one of `statuses` (as words). */
export const StatusFilter = ({ statuses, initial }: { statuses: readonly string[]; initial: string }) => (
  <SelectField
    label="Status"
    name="status"
    empty="Any"
    choices={choicesOf(statuses, statusLabel)}
    initial={initial}
  />
);
