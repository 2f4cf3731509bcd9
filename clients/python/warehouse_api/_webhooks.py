import base64
import hashlib
import hmac
import json
import time
from typing import Mapping, Optional, Union

from .models import WebhookEvent, parse_webhook_event

TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    """A delivery whose signature does not match, or whose timestamp is more than 5 minutes off."""


def _header(headers: Mapping[str, str], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    raise WebhookVerificationError(f"missing {name} header")


def verify_webhook(
    secret: str, raw_body: Union[str, bytes], headers: Mapping[str, str], now: Optional[float] = None
) -> WebhookEvent:
    """Verifies a delivery and returns its body as the class its ``type`` names (``OrderCreatedWebhookBody``, whose
    ``data`` is an ``Order``; ``UnknownWebhookEvent`` for a type this version does not know).

    Standard Webhooks: HMAC-SHA256 of ``"{webhook-id}.{webhook-timestamp}.{body}"`` with the ``whsec_...`` secret,
    compared with each ``v1,<base64>`` signature of ``webhook-signature`` (several during a secret rotation), and a
    timestamp within 5 minutes. Pass the body exactly as received, before any JSON parsing.
    Raises ``WebhookVerificationError`` when it is forged, altered or stale.
    """
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    message_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    try:
        sent_at = int(timestamp)
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not a number") from None
    if abs((time.time() if now is None else now) - sent_at) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("webhook-timestamp is more than 5 minutes off")
    key = base64.b64decode(secret[len("whsec_") :] if secret.startswith("whsec_") else secret)
    signed = f"{message_id}.{timestamp}.".encode("utf-8") + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode("ascii")
    for signature in signatures.split(" "):
        version, _, value = signature.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return parse_webhook_event(json.loads(body))
    raise WebhookVerificationError("no signature matches")
