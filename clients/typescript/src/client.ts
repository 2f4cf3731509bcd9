import { Resources } from "./generated/operations.js";
import { Transport, type WarehouseClientOptions } from "./transport.js";

/**
 * The Warehouse Management API: one property per resource group (`products`, `inventory`, `orders`, ...),
 * one method per operation, each returning the envelope's `data` or throwing `WarehouseApiError`.
 *
 * ```ts
 * const client = new WarehouseClient({ baseUrl: "https://wms.example.com", apiKey: process.env.WMS_KEY });
 * for await (const product of client.products.listAll({ search: "widget" })) console.log(product.sku);
 * ```
 */
export class WarehouseClient extends Resources {
  constructor(options: WarehouseClientOptions) {
    super(new Transport(options));
  }
}
