import type { ComponentChildren } from "preact";

/** A column's heading: its text; numbers are right-aligned; a select or actions column is named for screen readers only. */
export type Column = string | { label: string; number?: boolean; hidden?: boolean };

/** A list's table as every page shows one: scrolling sideways on a phone, named by `label` (and `caption`). */
export function Table({
  label,
  caption,
  columns,
  children,
}: {
  label: string;
  caption?: string;
  columns: Column[];
  children: ComponentChildren;
}) {
  return (
    <section class="table-scroll" aria-label={label}>
      <table>
        {caption && <caption class="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => {
              const { label, number, hidden } = typeof column === "string" ? { label: column } : column;
              return (
                <th key={label} scope="col" class={number ? "number" : undefined}>
                  {hidden ? <span class="visually-hidden">{label}</span> : label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}
