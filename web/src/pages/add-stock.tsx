import { api, unwrap } from "../api/client";
import { EditDialog } from "../ui/form-dialog";
import { locationChoices, useLocations, useWarehouses } from "../ui/lookups";
import { chosenOwner, MerchantField, useMerchantChoice } from "../ui/merchant-field";
import { productByCode } from "../ui/products-lookup";
import { choicesOf, SelectField } from "../ui/select-field";

// Why stock arrives without a purchase order: an opening balance is `received`, the rest say what happened.
const REASONS = ["received", "found", "returned", "correction"];

/**
 * Add stock: units of any product into any location (a bin that never held it too), outside a purchase order: an
 * opening balance, a find, a return without an RMA. A positive adjustment (`POST /inventory/adjustments`), which
 * the ledger records with its reason; a lot-tracked product names its lot (a new number makes the lot, with its
 * expiry), a serial-tracked one a serial per unit.
 */
export function AddStockDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const locations = useLocations();
  const warehouses = useWarehouses();
  const merchants = useMerchantChoice();
  const save = async (fields: Record<string, string>) => {
    // A 3PL's merchants may share a SKU (#44): the Merchant select says whose product the code is.
    const product = await productByCode(fields.code ?? "", chosenOwner(fields, merchants));
    const serials = (fields.serialNumbers ?? "").split(/\s+/).filter(Boolean);
    return unwrap(
      api.POST("/api/v1/inventory/adjustments", {
        body: {
          productId: product.id,
          locationId: fields.locationId ?? "",
          quantity: Number(fields.quantity),
          reason: fields.reason ?? "received",
          ...(fields.lotNumber && { lotNumber: fields.lotNumber.trim() }),
          ...(fields.expiresAt && { expiresAt: fields.expiresAt }),
          ...(serials.length > 0 && { serialNumbers: serials }),
          ...(fields.notes && { notes: fields.notes }),
        },
      }),
    );
  };
  return (
    <EditDialog title="Add stock" submitLabel="Add stock" save={save} onSaved={onDone} onClose={onClose}>
      <label class="field">
        <span>SKU or barcode</span>
        <input name="code" required maxLength={100} autofocus />
      </label>
      <MerchantField empty="Any (the product's owner)" ownChoice initial="" />
      <SelectField
        label="Location"
        name="locationId"
        required
        empty="Choose…"
        choices={locationChoices(locations.data, warehouses.data)}
      />
      <label class="field">
        <span>Quantity</span>
        <input name="quantity" type="number" min={1} step={1} required inputMode="numeric" />
      </label>
      <SelectField label="Reason" name="reason" choices={choicesOf(REASONS)} initial="received" />
      <div class="field-row">
        <label class="field">
          <span>Lot (lot-tracked products)</span>
          <input name="lotNumber" maxLength={100} />
        </label>
        <label class="field">
          <span>Expires (a new lot)</span>
          <input name="expiresAt" type="date" />
        </label>
      </div>
      <label class="field">
        <span>Serial numbers (serial-tracked products; one per unit)</span>
        <textarea name="serialNumbers" rows={2} />
      </label>
      <label class="field">
        <span>Notes (optional)</span>
        <input name="notes" maxLength={500} />
      </label>
    </EditDialog>
  );
}
