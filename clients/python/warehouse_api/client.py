from typing import Any, Dict, Literal, Optional, Union

from . import models as m
from ._jobs import ImportType, JobFiles
from ._operations import OPERATIONS, Resources
from ._transport import Transport


class WarehouseClient(Resources):
    """The Warehouse Management API: one attribute per resource group (``products``, ``inventory``,
    ``orders``...), one method per operation, each returning the envelope's ``data`` (a ``Page`` for lists)
    or raising ``WarehouseApiError``.

    Authenticate with ``api_key``, or with ``email`` + ``password`` (+ ``tenant_id``): the client logs in,
    refreshes the access token ``refresh_before_expiry`` seconds before it expires and keeps the rotated refresh
    token. ``platform_token`` is for ``client.platform``.

    ``timeout`` (seconds) is each call's deadline, covering every attempt and every wait between them (every method
    also takes its own ``timeout``); ``attempt_timeout`` bounds one attempt. A ``Retry-After`` longer than
    ``max_retry_after`` seconds, or one that would end past the deadline, raises ``RateLimitError`` at once.

    ``import_file`` uploads a file (CSV or NDJSON), imports it as a job and waits for the job; ``wait_for_job`` and
    ``job_result`` (an export's file or an import's error report, as text) go with it.
    """

    def __init__(
        self,
        base_url: str,
        *,
        api_key: Optional[str] = None,
        email: Optional[str] = None,
        password: Optional[str] = None,
        tenant_id: Optional[str] = None,
        platform_token: Optional[str] = None,
        timeout: float = 60.0,
        attempt_timeout: float = 30.0,
        max_retries: int = 3,
        max_retry_after: float = 60.0,
        refresh_before_expiry: float = 60.0,
    ) -> None:
        transport = Transport(
            OPERATIONS,
            base_url,
            api_key=api_key,
            email=email,
            password=password,
            tenant_id=tenant_id,
            platform_token=platform_token,
            timeout=timeout,
            attempt_timeout=attempt_timeout,
            max_retries=max_retries,
            max_retry_after=max_retry_after,
            refresh_before_expiry=refresh_before_expiry,
        )
        super().__init__(transport)
        self._files = JobFiles(transport, self.jobs)

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
        """Uploads a file, imports it as a ``type`` job and waits for the job to end (``_jobs.py``)."""
        return self._files.import_file(
            type,
            file,
            content_type=content_type,
            filename=filename,
            options=options,
            poll_interval=poll_interval,
            wait_timeout=wait_timeout,
        )

    def wait_for_job(self, id: str, *, poll_interval: float = 1.0, wait_timeout: float = 1800.0) -> m.Job:
        """Reads a job until it has ended and returns it."""
        return self._files.wait_for_job(id, poll_interval=poll_interval, wait_timeout=wait_timeout)

    def job_result(self, id: str) -> str:
        """A succeeded job's file as text: an export's CSV, or an import's error report."""
        return self._files.job_result(id)
