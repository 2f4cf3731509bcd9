import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatDateTime } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";

type Event = Schemas["Event"];

/** The events feed (oldest first, read on with its cursor) and how each webhook is doing. */
export function Events() {
  useDocumentTitle("Events");
  const webhooks = useLoad(
    () => unwrap(api.GET("/api/v1/webhooks", { params: { query: { pageSize: 100 } } })),
    [],
  );
  const [events, setEvents] = useState<Event[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [more, setMore] = useState(true);
  const read = useSubmit(async () => {
    const page = await unwrap(
      api.GET("/api/v1/events", { params: { query: { limit: 50, ...(cursor && { after: cursor }) } } }),
    );
    setEvents([...events, ...page.items]);
    setCursor(page.nextCursor);
    setMore(page.hasMore);
  });
  return (
    <>
      <h1 tabIndex={-1}>Events</h1>
      <section aria-labelledby="health-heading">
        <h2 id="health-heading">Webhook health</h2>
        <LoadedList load={webhooks} empty="No webhooks. Add one under Configuration.">
          {(list) => (
            <Table label="Webhook health" columns={["Endpoint", "State", "Failing since"]}>
              {list.items.map((w) => (
                <tr key={w.id}>
                  <td>
                    <a href={`/app/configuration/webhooks/${w.id}`}>{w.url}</a>
                  </td>
                  <td>
                    <span
                      class={`badge ${!w.active ? "badge-failed" : w.failingSince ? "badge-pending" : "badge-succeeded"}`}
                    >
                      {!w.active ? "disabled" : w.failingSince ? "failing" : "healthy"}
                    </span>
                    {w.disabledReason && <span class="muted"> {w.disabledReason}</span>}
                  </td>
                  <td>{formatDateTime(w.failingSince)}</td>
                </tr>
              ))}
            </Table>
          )}
        </LoadedList>
      </section>
      <section aria-labelledby="feed-heading">
        <h2 id="feed-heading">Event feed</h2>
        <p class="muted">What happened in this tenant, oldest first, as integrators read it (GET /events).</p>
        {events.length > 0 && (
          <Table label="Event feed" columns={["When", "Type", "Id"]}>
            {events.map((event) => (
              <tr key={event.id}>
                <td>{formatDateTime(event.timestamp)}</td>
                <td>{event.type}</td>
                <td>
                  <code>{event.id}</code>
                </td>
              </tr>
            ))}
          </Table>
        )}
        <ErrorMessage error={read.error} />
        <div class="toolbar">
          <button type="button" class="button" disabled={read.busy || !more} onClick={() => void read.run()}>
            {events.length === 0 ? "Read the feed" : more ? "Read more" : "Up to date"}
          </button>
        </div>
      </section>
    </>
  );
}
