from typing import Optional

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
        super().__init__(
            Transport(
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
        )
