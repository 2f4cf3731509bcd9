// biome-ignore-all lint/a11y/noRedundantRoles: a phone displays the table as blocks (stacked rows), which drops its implicit roles; the explicit ones keep it a table for screen readers
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";

/** A column's heading: its text; numbers are right-aligned; a select or actions column is named for screen readers only. */
export type Column = string | { label: string; number?: boolean; hidden?: boolean };

const labelOf = (column: Column) => (typeof column === "string" ? column : column.label);

/**
 * A list's table as every page shows one, named by `label` (and `caption`). On a phone its rows stack: each cell
 * on its own line under its column's name (styles.css), so no column is hidden behind sideways scrolling. The cells
 * learn their column's name here, once rendered, because rows are often components of their own; the explicit
 * table roles keep screen readers reading a table when CSS displays it as blocks. Wider than its screen anyway
 * (a wide table on a small laptop), the region scrolls and is focusable, so a keyboard can scroll it too.
 */
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
  const body = useRef<HTMLTableSectionElement>(null);
  const region = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    // The scrolling region is named `label`, unless the section around it already has that name (a heading of
    // the same words): two landmarks of one name are one too many (axe landmark-unique).
    const around = region.current?.parentElement?.closest<HTMLElement>("section[aria-labelledby]");
    const heading = around && document.getElementById(around.getAttribute("aria-labelledby") ?? "");
    if (heading?.textContent?.trim() === label) region.current?.removeAttribute("aria-label");
    else region.current?.setAttribute("aria-label", label);
    for (const row of body.current?.rows ?? []) {
      row.setAttribute("role", "row");
      let index = 0;
      for (const cell of row.cells) {
        const column = columns[index];
        const hidden = column === undefined || (typeof column !== "string" && column.hidden);
        cell.setAttribute("role", "cell");
        cell.dataset.label = hidden ? "" : labelOf(column);
        index += cell.colSpan;
      }
    }
  });
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable)
    <section ref={region} class="table-scroll stacked" tabIndex={0}>
      <table role="table">
        {caption && <caption class="visually-hidden">{caption}</caption>}
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => {
              const { label, number, hidden } = typeof column === "string" ? { label: column } : column;
              return (
                <th key={label} scope="col" role="columnheader" class={number ? "number" : undefined}>
                  {hidden ? <span class="visually-hidden">{label}</span> : label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody role="rowgroup" ref={body}>
          {children}
        </tbody>
      </table>
    </section>
  );
}
