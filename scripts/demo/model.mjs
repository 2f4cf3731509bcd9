// What the demo filler has done to stock, kept while its plan is made (scripts/demo/plan.mjs): every quantity the
// plan asks of the API is checked here first, so the plan is valid by construction on any date. A step the model
// refuses is a bug of the plan, found by `npm run test:first-run` on every date it tries, never by the server.
//
// Locations are named `WAREHOUSE/CODE`. Each product has one home bin per warehouse, so the model knows where the
// server reserves, picks and ships from without copying its allocation rules: reservations are counted per
// product and warehouse, and a move out of a location may take only what no reservation could be sitting on
// (its on hand minus every reservation of the product in the warehouse).

export class StockModel {
  /** sku -> (`WAREHOUSE/CODE` -> units on hand). */
  onHand = new Map();
  /** `sku@WAREHOUSE` -> units reserved by orders and holds. */
  reserved = new Map();
  /** Locations whose stock is never available (a quarantine). */
  notSellable = new Set();
  /** How many times stock on hand has changed: a day with changes has ledger rows. */
  changes = 0;

  static warehouseOf(location) {
    return location.split("/")[0];
  }

  onHandAt(sku, location) {
    return this.onHand.get(sku)?.get(location) ?? 0;
  }

  reservedIn(sku, warehouse) {
    return this.reserved.get(`${sku}@${warehouse}`) ?? 0;
  }

  /** What a new order or hold could reserve in the warehouse. */
  available(sku, warehouse) {
    let sellable = 0;
    for (const [location, units] of this.onHand.get(sku) ?? [])
      if (StockModel.warehouseOf(location) === warehouse && !this.notSellable.has(location))
        sellable += units;
    return sellable - this.reservedIn(sku, warehouse);
  }

  /** What may leave a location by a transfer or write-off whatever the server reserved there. */
  movable(sku, location) {
    if (this.notSellable.has(location)) return this.onHandAt(sku, location);
    return Math.max(0, this.onHandAt(sku, location) - this.reservedIn(sku, StockModel.warehouseOf(location)));
  }

  #add(sku, location, units) {
    const after = this.onHandAt(sku, location) + units;
    if (after < 0) throw new Error(`model: ${sku} at ${location} would hold ${after}`);
    this.changes++;
    if (!this.onHand.has(sku)) this.onHand.set(sku, new Map());
    this.onHand.get(sku).set(location, after);
  }

  receive(sku, location, units) {
    this.#add(sku, location, units);
  }

  reserve(sku, warehouse, units) {
    const available = this.available(sku, warehouse);
    if (units > available)
      throw new Error(`model: ${sku} in ${warehouse} has ${available} available, not ${units}`);
    this.reserved.set(`${sku}@${warehouse}`, this.reservedIn(sku, warehouse) + units);
  }

  release(sku, warehouse, units) {
    const after = this.reservedIn(sku, warehouse) - units;
    if (after < 0) throw new Error(`model: ${sku} in ${warehouse} would have ${after} reserved`);
    this.reserved.set(`${sku}@${warehouse}`, after);
  }

  /** A transfer or a write-off (negative units) out of a location. */
  take(sku, location, units) {
    const movable = this.movable(sku, location);
    if (units > movable)
      throw new Error(`model: only ${movable} of ${sku} may leave ${location}, not ${units}`);
    this.#add(sku, location, -units);
  }

  /** A pick: reserved units move from their bin to the packing location, still reserved. */
  pick(sku, from, to, units) {
    if (units > this.onHandAt(sku, from))
      throw new Error(`model: ${from} holds fewer than ${units} of ${sku}`);
    this.#add(sku, from, -units);
    this.#add(sku, to, units);
  }

  /** Reserved units leave the warehouse from a location (a shipment). */
  ship(sku, location, units) {
    this.release(sku, StockModel.warehouseOf(location), units);
    this.#add(sku, location, -units);
  }

  /** Units on hand per `sku@WAREHOUSE/CODE`, without the zeros: what `GET /inventory/stock` should list. */
  levels() {
    const levels = new Map();
    for (const [sku, locations] of this.onHand)
      for (const [location, units] of locations) if (units > 0) levels.set(`${sku}@${location}`, units);
    return levels;
  }
}
