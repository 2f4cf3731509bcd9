import { api, type Schemas, unwrap } from "../api/client";
import { FilteredList, StatusFilter, useFilteredList } from "../ui/filtered-list";
import { formatDateTime, formatInteger, statusLabel } from "../ui/format";
import { choicesOf, SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";

type Job = Schemas["Job"];
type JobStatus = Schemas["JobStatus"];
type JobType = Job["type"];
const STATUSES: JobStatus[] = ["queued", "running", "succeeded", "failed", "cancelled"];
const TYPES: JobType[] = [
  "product_import",
  "stock_import",
  "products_export",
  "stock_export",
  "movements_export",
  "events_export",
];

/** How a job is named on screens: its type and the end of its id. */
export const jobName = (job: Pick<Job, "id" | "type">) => `${statusLabel(job.type)} ${job.id.slice(-6)}`;

/** Rows done of the rows counted (`12 of 40`), or just the rows done while the job still counts them. */
export const jobProgress = (job: Job) =>
  job.total === null
    ? formatInteger(job.processed)
    : `${formatInteger(job.processed)} of ${formatInteger(job.total)}`;

/** Imports and exports the API runs in the background, newest first, with status and type filters. */
export function Jobs() {
  useDocumentTitle("Jobs");
  const jobs = useFilteredList(["status", "type"] as const, (values, page) =>
    unwrap(
      api.GET("/api/v1/jobs", {
        params: {
          query: {
            page,
            pageSize: 25,
            ...(values.status && { status: values.status as JobStatus }),
            ...(values.type && { type: values.type as JobType }),
          },
        },
      }),
    ),
  );
  return (
    <>
      <h1 tabIndex={-1}>Jobs</h1>
      <p class="muted">A product import runs as a job from Products → Import CSV.</p>
      <FilteredList
        noun="jobs"
        data={jobs}
        fields={
          <>
            <StatusFilter statuses={STATUSES} initial={jobs.values.status} />
            <SelectField
              label="Type"
              name="type"
              empty="Any"
              choices={choicesOf(TYPES, statusLabel)}
              initial={jobs.values.type}
            />
          </>
        }
      >
        {(list) => (
          <Table
            label="Jobs"
            columns={[
              "Job",
              "Status",
              { label: "Rows done", number: true },
              { label: "Failed", number: true },
              "Created",
            ]}
          >
            {list.items.map((job) => (
              <tr key={job.id}>
                <td>
                  <a href={`/app/jobs/${job.id}`}>{jobName(job)}</a>
                </td>
                <td>
                  <span class={`badge status-${job.status}`}>{statusLabel(job.status)}</span>
                </td>
                <td class="number">{jobProgress(job)}</td>
                <td class="number">{formatInteger(job.failed)}</td>
                <td>{formatDateTime(job.createdAt)}</td>
              </tr>
            ))}
          </Table>
        )}
      </FilteredList>
    </>
  );
}
