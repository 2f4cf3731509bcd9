import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { changesOf } from "../ui/edits";
import { fieldsOf, useSubmit } from "../ui/form";
import { DialogActions } from "../ui/form-dialog";
import { MerchantField, merchantOf, OWN_GOODS, ownerOf, useMerchantChoice } from "../ui/merchant-field";
import { Modal } from "../ui/modal";
import { useProductsById } from "../ui/products-lookup";
import { SelectField } from "../ui/select-field";
import {
  type ComponentRow,
  ComponentsEditor,
  componentsOf,
  type PackagingRow,
  PackagingsEditor,
  packagingRows,
  packagingsOf,
} from "./product-parts";

type Product = Schemas["Product"];
type Fields = Schemas["CreateProductRequest"];

const numberOrNull = (value: string | undefined) => (value ? Number(value) : null);

/** The fields of a product form as the API takes them (empty optional fields are null). */
function productFields(fields: Record<string, string>): Fields {
  return {
    sku: (fields.sku ?? "").trim(),
    name: (fields.name ?? "").trim(),
    barcode: fields.barcode?.trim() || null,
    category: fields.category?.trim() || null,
    unit: fields.unit?.trim() || null,
    price: numberOrNull(fields.price),
    cost: numberOrNull(fields.cost),
    reorderPoint: Number(fields.reorderPoint || 0),
    description: fields.description?.trim() || null,
    tracking: (fields.tracking || "none") as Fields["tracking"],
  };
}

/** A product as the form shows it, in the API's shape: a save sends only what differs from it. */
const productAsShown = (p: Product) => ({
  sku: p.sku,
  name: p.name,
  barcode: p.barcode,
  category: p.category,
  unit: p.unit,
  price: p.price,
  cost: p.cost,
  reorderPoint: p.reorderPoint,
  description: p.description,
  tracking: p.tracking,
  merchantId: p.merchantId,
  components: p.components.map(({ productId, quantity }) => ({ productId, quantity })),
  packagings: packagingsOf(packagingRows(p.packagings)),
});

/**
 * Creates a product, or edits one: an edit PATCHes only the fields the person changed (nothing when none), so
 * what the form does not show (status; the merchant where it shows none) and what someone else changed meanwhile
 * stay as they are. A 3PL puts a product under a merchant with the Merchant select.
 * A kit (chosen at creation, fixed after) lists its components by SKU or barcode; a stocked product its packagings.
 */
export function ProductDialog({
  product,
  onClose,
  onSaved,
}: {
  product?: Product;
  onClose: () => void;
  onSaved: (product: Product) => void;
}) {
  const [kit, setKit] = useState(product?.type === "kit");
  const merchants = useMerchantChoice();
  const [packagings, setPackagings] = useState<PackagingRow[]>(() =>
    packagingRows(product?.packagings ?? []),
  );
  const [components, setComponents] = useState<ComponentRow[] | null>(product?.type === "kit" ? null : []);
  // An edited kit's components are shown by SKU: read its products once, then edit them as rows.
  const parts = useProductsById(product?.components.map((c) => c.productId) ?? []);
  const componentRows =
    components ??
    (parts.data
      ? (product?.components ?? []).map((c) => ({
          code: parts.data?.get(c.productId)?.sku ?? c.productId,
          quantity: String(c.quantity),
        }))
      : null);
  const submit = useSubmit(async (fields: Record<string, string>) => {
    const merchantId = merchantOf(fields);
    const body = {
      ...productFields(fields),
      ...(merchantId !== undefined && { merchantId }),
      ...(kit
        ? {
            ...(!product && { type: "kit" as const }),
            // A kit's components are its owner's goods (the API refuses others): their codes name the owner's.
            components: await componentsOf(
              componentRows ?? [],
              ownerOf(merchantId === undefined ? product?.merchantId : merchantId, merchants),
            ),
          }
        : { packagings: packagingsOf(packagings) }),
    };
    if (!product) onSaved(await unwrap(api.POST("/api/v1/products", { body })));
    else {
      const changes = changesOf(productAsShown(product), body);
      if (changes) {
        const path = { id: product.id };
        onSaved(await unwrap(api.PATCH("/api/v1/products/{id}", { params: { path }, body: changes })));
      }
    }
    onClose();
  });
  const text = (name: keyof Product, label: string, extra: Record<string, unknown> = {}) => (
    <label class="field">
      <span>{label}</span>
      <input name={name} defaultValue={product?.[name] == null ? "" : String(product[name])} {...extra} />
    </label>
  );
  return (
    <Modal title={product ? `Edit ${product.sku}` : "New product"} onClose={onClose}>
      <form onSubmit={(event) => void submit.run(fieldsOf(event))}>
        <div class="field-row">
          {text("sku", "SKU", { required: true, maxLength: 100 })}
          {text("name", "Name", { required: true, maxLength: 200 })}
        </div>
        <div class="field-row">
          {text("barcode", "Barcode (optional)", { maxLength: 100, inputMode: "numeric" })}
          {text("category", "Category (optional)", { maxLength: 100 })}
        </div>
        <div class="field-row">
          {text("price", "Price", { type: "number", min: 0, step: "0.01", inputMode: "decimal" })}
          {text("cost", "Cost", { type: "number", min: 0, step: "0.01", inputMode: "decimal" })}
          {text("reorderPoint", "Reorder point", { type: "number", min: 0, step: 1, inputMode: "numeric" })}
        </div>
        <div class="field-row">
          {text("unit", "Unit (optional)", { maxLength: 20 })}
          <SelectField
            label="Tracking"
            name="tracking"
            choices={[
              { value: "none", label: "None" },
              { value: "lot", label: "Lots (with expiry)" },
              { value: "serial", label: "Serial numbers" },
            ]}
            initial={product?.tracking ?? "none"}
          />
        </div>
        {text("description", "Description (optional)", { maxLength: 2000 })}
        <MerchantField empty={OWN_GOODS} initial={product?.merchantId} />
        {!product && (
          <SelectField
            label="Type"
            choices={[
              { value: "stocked", label: "Stocked product" },
              { value: "kit", label: "Kit (sold as its components)" },
            ]}
            value={kit ? "kit" : "stocked"}
            onChange={(type) => setKit(type === "kit")}
          />
        )}
        {kit ? (
          componentRows && <ComponentsEditor rows={componentRows} onChange={setComponents} />
        ) : (
          <PackagingsEditor rows={packagings} onChange={setPackagings} />
        )}
        <DialogActions submit={submit} submitLabel={product ? "Save" : "Create product"} onClose={onClose} />
      </form>
    </Modal>
  );
}
