"""The official Python client of the Warehouse Management API."""

from ._errors import WarehouseApiError
from ._feed import CursorFeed
from ._transport import UNSET, Page
from ._webhooks import WebhookVerificationError, verify_webhook
from .client import WarehouseClient

__all__ = [
    "UNSET",
    "CursorFeed",
    "Page", "WarehouseApiError", "WarehouseClient", "WebhookVerificationError", "verify_webhook",
]
__version__ = "1.0.0"
