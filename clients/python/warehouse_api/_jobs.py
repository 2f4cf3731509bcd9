"""Imports from a file, hand-written beside the generated operations: the upload's body is the file itself (not
JSON) and a job's result is a CSV file, so these two calls are sent here; the job in between is the generated
``jobs.create`` and ``jobs.get``. The same helpers in every client (docs/decisions/jobs.md)."""

import time
from typing import Any, Dict, Literal, Optional, Union

from . import models as m
from ._transport import Operation, Transport

_UPLOAD = Operation("createUpload", "POST", "/api/v1/uploads", "tenant", "refused-only")
_RESULT = Operation("getJobResult", "GET", "/api/v1/jobs/{id}/result", "tenant", "safe")
_ENDED = {"succeeded", "failed", "cancelled"}

ImportType = Literal["product_import", "stock_import"]


class JobFiles:
    def __init__(self, transport: Transport, jobs: Any) -> None:
        self._t = transport
        self._jobs = jobs

    def import_file(
        self,
        type: ImportType,
        file: Union[str, bytes],
        *,
        content_type: Literal["text/csv", "application/x-ndjson"] = "text/csv",
        filename: Optional[str] = None,
        options: Optional[Dict[str, Any]] = None,
        poll_interval: float = 1.0,
        wait_timeout: float = 1800.0,
    ) -> m.Job:
        """Uploads ``file`` (CSV with a header row, or NDJSON), imports it as a ``type`` job, waits for the job to end
        and returns it: ``status``, ``processed``, ``failed`` and the first failing rows with their lines.
        ``job_result(job.id)`` is the error report with every failing row."""
        text = file.decode("utf-8") if isinstance(file, bytes) else file
        upload = self._t.call(
            _UPLOAD,
            query={"filename": filename} if filename else None,
            body=text,
            headers={"Content-Type": content_type},
        )
        job = self._jobs.create(type=type, upload_id=upload["id"], options=options or {})
        return self.wait_for_job(job.id, poll_interval=poll_interval, wait_timeout=wait_timeout)

    def wait_for_job(self, id: str, *, poll_interval: float = 1.0, wait_timeout: float = 1800.0) -> m.Job:
        """Reads the job until it has ended (succeeded, failed or cancelled) and returns it."""
        deadline = time.monotonic() + wait_timeout
        while True:
            job = self._jobs.get(id)
            if job.status in _ENDED:
                return job
            if time.monotonic() > deadline:
                raise TimeoutError(f"job {id} is still {job.status}")
            time.sleep(poll_interval)

    def job_result(self, id: str) -> str:
        """A succeeded job's file as text: an export's CSV, or an import's error report (``line,errors``)."""
        return self._t.call(_RESULT, path=(id,), csv=True)


__all__ = ["JobFiles", "ImportType"]
