import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { type AsRead, replacementOf } from "../ui/edits";
import { EditDialog } from "../ui/form-dialog";
import { formatDateTime } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";

type Merchant = Schemas["Merchant"];

/** The merchants a 3PL warehouse stores goods for: search by code or name, create, edit. */
export function Merchants() {
  useDocumentTitle("Merchants");
  const { values, page, show } = useUrlFilters(["search"] as const);
  const [editing, setEditing] = useState<Merchant | "new" | null>(null);
  const merchants = useLoad(
    () =>
      unwrap(
        api.GET("/api/v1/merchants", {
          params: { query: { page, pageSize: 25, ...(values.search && { search: values.search }) } },
        }),
      ),
    [page, values.search],
  );
  return (
    <>
      <h1 tabIndex={-1}>Merchants</h1>
      <div class="toolbar">
        <button type="button" class="button button-primary" onClick={() => setEditing("new")}>
          New merchant
        </button>
      </div>
      <form
        class="filters"
        aria-label="Filter merchants"
        onSubmit={(event) => show({ search: filterFields(event).search ?? "", page: 1 })}
      >
        <label class="field">
          <span>Search</span>
          <input name="search" type="search" defaultValue={values.search} placeholder="Code or name" />
        </label>
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <LoadedList
        load={merchants}
        empty={values.search ? "No merchant matches this search." : "No merchants yet."}
        onPage={(next) => show({ page: next })}
      >
        {(list) => (
          <Table label="Merchants" columns={["Code", "Name", "Created", { label: "Actions", hidden: true }]}>
            {list.items.map((m) => (
              <tr key={m.id}>
                <td>{m.code}</td>
                <td>{m.name}</td>
                <td>{formatDateTime(m.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    class="button"
                    onClick={() => setEditing(m)}
                    aria-label={`Edit ${m.code}`}
                  >
                    Edit
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
      {editing && (
        <MerchantDialog
          merchant={editing === "new" ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={merchants.reload}
        />
      )}
    </>
  );
}

/** A merchant as its PUT takes it back: every field as read. */
const merchantAsRead = (m: Merchant): AsRead<Schemas["MerchantRequest"]> => ({ code: m.code, name: m.name });

function MerchantDialog({
  merchant,
  onClose,
  onSaved,
}: {
  merchant?: Merchant;
  onClose: () => void;
  onSaved: () => void;
}) {
  return (
    <EditDialog
      title={merchant ? `Edit ${merchant.code}` : "New merchant"}
      submitLabel={merchant ? "Save" : "Create merchant"}
      onClose={onClose}
      onSaved={onSaved}
      save={async (fields) => {
        const edited = { code: (fields.code ?? "").trim(), name: (fields.name ?? "").trim() };
        if (!merchant) return unwrap(api.POST("/api/v1/merchants", { body: edited }));
        const body = replacementOf(merchantAsRead(merchant), edited);
        if (body)
          await unwrap(api.PUT("/api/v1/merchants/{id}", { params: { path: { id: merchant.id } }, body }));
      }}
    >
      <label class="field">
        <span>Code</span>
        <input name="code" required maxLength={32} defaultValue={merchant?.code} autocomplete="off" />
      </label>
      <label class="field">
        <span>Name</span>
        <input name="name" required maxLength={200} defaultValue={merchant?.name} />
      </label>
    </EditDialog>
  );
}
