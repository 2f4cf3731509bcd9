import { csvColumns, readCsv } from "./csv-parse";
import { MAX_ROW_BYTES } from "./record-scanner";
import { utf8Text } from "./utf8";

// A CSV file's header, read the one way for both places that read it: POST /uploads, as the file streams in, and
// the import job's first step (for a file stored before uploads checked it). No row can be read without it.

/**
 * The columns of a CSV's header record, from the file's bytes up to the header's end (`line` is the line it is on),
 * or why they cannot be read, naming that line.
 */
export function csvHeaderColumns(
  bytes: Uint8Array,
  line: number,
): { columns: string[] } | { problem: string } {
  if (bytes.byteLength > MAX_ROW_BYTES) {
    return { problem: `line ${line}: the header is longer than ${MAX_ROW_BYTES} bytes` };
  }
  const text = utf8Text(bytes);
  if (text === null) return { problem: `line ${line}: the header is not valid UTF-8` };
  const [record] = readCsv(text);
  const read = record ? csvColumns(record) : { problem: "the header is empty" };
  return "problem" in read ? { problem: `line ${record?.line ?? line}: ${read.problem}` } : read;
}
