import { uuidv7 } from "uuidv7";
import { inJsonArray } from "../db/batch";
import type { TenantDb } from "../db/client";
import { type KitLine, kitComponents } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { toE4 } from "../money";
import type { OrderLineRow } from "../order-core/records";

// A sales line of a kit is stored as a kit line (orders.kit_lines: the kit, how many, its price) and one ordinary
// order line per component (quantity = kits x the component's quantity, price 0, kit_line_id naming the kit
// line). Everything that follows an order's lines (reservation, pick lists, shipping, cancelling, returns)
// then serves components as it serves any product, and the order's one batch reserves all of them or none.

/** The components of the kits among `productIds` (nothing for a stocked product), for the order's read batch. */
export function kitComponentsOf(tdb: TenantDb, productIds: readonly string[]) {
  return tdb.db
    .select({
      kitId: kitComponents.kitId,
      componentId: kitComponents.componentId,
      quantity: kitComponents.quantity,
    })
    .from(kitComponents)
    .where(inTenant(tdb, kitComponents, inJsonArray(kitComponents.kitId, [...new Set(productIds)])));
}

export type ComponentRead = Awaited<ReturnType<typeof kitComponentsOf>>[number];

interface RequestLine {
  productId: string;
  quantity: number;
  price: number;
  lotNumber?: string | undefined;
  holdId?: string | undefined;
}

export interface ExpandedLines {
  /** Each request line's stored line: its order line, or (a kit) its kit line. */
  byRequest: { id: string }[];
  /** The order lines: stocked products' lines in request order, then the kits' component lines. */
  rows: OrderLineRow[];
  kitLines: KitLine[];
  /** Each order line's request line, and the kit it is a component of (for naming a short line). */
  requestOf: Map<string, { index: number; kitId?: string }>;
}

/**
 * The stored lines of a sales order's request lines: kits (`components` has their rows) expand into their
 * components. A kit line cannot pin a lot or take a hold (400): its components are reserved from free stock.
 */
export function expandKits(
  tenantId: string,
  orderId: string,
  lines: readonly RequestLine[],
  components: readonly ComponentRead[],
): ExpandedLines {
  const ofKit = new Map<string, ComponentRead[]>();
  for (const c of components) ofKit.set(c.kitId, [...(ofKit.get(c.kitId) ?? []), c]);
  const problems = lines.flatMap((line, i) =>
    ofKit.has(line.productId)
      ? [
          ...(line.lotNumber !== undefined ? [`lines[${i}].lotNumber: a kit's line cannot pin a lot`] : []),
          ...(line.holdId !== undefined ? [`lines[${i}].holdId: a kit's line cannot take a hold`] : []),
        ]
      : [],
  );
  if (problems.length) throw validationError(problems);
  const row = (
    lineNo: number,
    productId: string,
    quantity: number,
    unitPriceE4: number,
    kitLineId: string | null,
    lotNumber: string | null,
  ): OrderLineRow => ({
    id: uuidv7(),
    tenantId,
    orderId,
    lineNo,
    productId,
    quantity,
    unitPriceE4,
    receivedQuantity: 0,
    shippedQuantity: 0,
    backorderedQuantity: 0,
    lotNumber,
    lots: null,
    serialNumbers: null,
    kitLineId,
  });
  const plain: OrderLineRow[] = [];
  const componentRows: OrderLineRow[] = [];
  const kitLines: KitLine[] = [];
  const requestOf: ExpandedLines["requestOf"] = new Map();
  // The schema admits only prices with at most 4 decimals, so toE4 is defined.
  const byRequest = lines.map((line, i) => {
    const parts = ofKit.get(line.productId);
    if (!parts) {
      const plainRow = row(
        i + 1,
        line.productId,
        line.quantity,
        toE4(line.price) ?? 0,
        null,
        line.lotNumber ?? null,
      );
      plain.push(plainRow);
      requestOf.set(plainRow.id, { index: i });
      return plainRow;
    }
    const kitLine = {
      id: uuidv7(),
      lineNo: i + 1,
      productId: line.productId,
      quantity: line.quantity,
      unitPriceE4: toE4(line.price) ?? 0,
    };
    kitLines.push(kitLine);
    for (const part of parts) {
      const component = row(0, part.componentId, line.quantity * part.quantity, 0, kitLine.id, null);
      componentRows.push(component);
      requestOf.set(component.id, { index: i, kitId: line.productId });
    }
    return kitLine;
  });
  // Component lines are numbered after every request line, so a request's line numbers stay its own.
  componentRows.forEach((component, k) => {
    component.lineNo = lines.length + k + 1;
  });
  return { byRequest, rows: [...plain, ...componentRows], kitLines, requestOf };
}

/** A kit whose component is Inactive cannot be ordered (409 naming the kit line and the component). */
export function assertComponentsOrderable(
  expanded: ExpandedLines,
  found: readonly { id: string; sku: string; status: string }[],
) {
  const byId = new Map(found.map((p) => [p.id, p]));
  const inactive = expanded.rows.flatMap((line) => {
    const { index, kitId } = expanded.requestOf.get(line.id) ?? { index: 0 };
    const component = byId.get(line.productId);
    return kitId && component?.status === "Inactive"
      ? [`lines[${index}]: component ${component.sku} of kit ${byId.get(kitId)?.sku} is Inactive`]
      : [];
  });
  if (inactive.length) throw conflict("Inactive products cannot be ordered", inactive);
}
