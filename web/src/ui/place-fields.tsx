import { type Location, locationChoices, type Warehouse, warehouseChoices } from "./lookups";
import { SelectField } from "./select-field";

/** A filter form's warehouse and location pickers: the locations offered are the chosen warehouse's. */
export function PlaceFilterFields(props: {
  warehouses: Warehouse[] | undefined;
  locations: Location[] | undefined;
  values: { warehouseId: string; locationId: string };
  /** Whether warehouses show their names beside their codes (a narrow form leaves them out). */
  named?: boolean;
}) {
  return (
    <>
      <SelectField
        label="Warehouse"
        name="warehouseId"
        empty="All"
        choices={warehouseChoices(props.warehouses, props.named ?? true)}
        initial={props.values.warehouseId}
      />
      <SelectField
        label="Location"
        name="locationId"
        empty="All"
        choices={locationChoices(props.locations, props.warehouses)}
        initial={props.values.locationId}
      />
    </>
  );
}

/** The place a submitted filter form names: a location stays chosen only while its warehouse does. */
export const placeOf = (fields: Record<string, string>, current: { warehouseId: string }) => ({
  warehouseId: fields.warehouseId ?? "",
  locationId: fields.warehouseId === current.warehouseId ? (fields.locationId ?? "") : "",
});

/** The one warehouse a new record is for (a count, a pick list), chosen before what depends on it is offered. */
export function WarehouseChoice(props: {
  warehouses: Warehouse[] | undefined;
  value: string;
  onChange: (warehouseId: string) => void;
}) {
  return (
    <SelectField
      label="Warehouse"
      required
      empty="Choose…"
      choices={warehouseChoices(props.warehouses)}
      value={props.value}
      onChange={props.onChange}
    />
  );
}
