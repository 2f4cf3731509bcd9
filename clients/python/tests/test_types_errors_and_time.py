"""Typed models, the error hierarchy, the call's deadline, Retry-After's cap, which 500s are retried, cancellation
and the User-Agent: against the live API, with the harness proxy as the local test server of the faults."""

import json
import re
import time
import uuid
from pathlib import Path

import pytest
from conftest import BASE_URL, env, proxy, unique

from warehouse_api import (
    ApiConnectionError,
    ApiTimeoutError,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    ServerError,
    ValidationError,
    WarehouseApiError,
    WarehouseClient,
    __version__,
)
from warehouse_api.models import Product, ProductStatus

client = WarehouseClient(BASE_URL, api_key=env("WAREHOUSE_API_KEY"))


def new_product() -> Product:
    return client.products.create(sku=f"TY-{unique()}", name="Typed", price=2.5)


def test_a_created_product_is_a_typed_model_with_snake_case_attributes() -> None:
    product = new_product()
    assert isinstance(product, Product)
    assert product.status is ProductStatus.ACTIVE and product.price == 2.5 and product.reorder_point == 0
    assert product.to_dict()["reorderPoint"] == 0 and product.to_dict()["sku"] == product.sku


def test_fields_and_enum_values_a_newer_server_adds_are_kept_not_fatal() -> None:
    known = new_product().to_dict()
    newer = Product.from_dict({**known, "status": "Archived", "carbonFootprint": {"kg": 1.2}})
    assert newer.status == "Archived" and newer.extra_fields == {"carbonFootprint": {"kg": 1.2}}
    assert newer.to_dict() == {**known, "status": "Archived", "carbonFootprint": {"kg": 1.2}}


def test_each_error_is_its_own_subclass_with_everything_in_its_string_form() -> None:
    with pytest.raises(NotFoundError):
        client.products.get(str(uuid.uuid4()))
    with pytest.raises(ValidationError) as invalid:
        client.products.create(sku=" ", name="")
    text = str(invalid.value)
    assert text.startswith("400 VALIDATION_FAILED: Validation failed [")
    assert "sku: SKU is required" in text and f"(request id {invalid.value.request_id})" in text
    assert invalid.value.request_id
    with pytest.raises(AuthenticationError):
        WarehouseClient(BASE_URL, api_key="wms_live_not_a_real_key").products.list()
    reader = client.api_keys.create(name=f"reader-{unique()}", scopes=["read:products"])
    with pytest.raises(PermissionDeniedError):
        WarehouseClient(BASE_URL, api_key=reader.key).products.create(sku=f"NO-{unique()}", name="Refused")
    taken = new_product()
    with pytest.raises(ConflictError):
        client.products.create(sku=taken.sku, name="Twice")
    with pytest.raises(ApiConnectionError) as unreachable:
        WarehouseClient("http://127.0.0.1:9", api_key="k", max_retries=0).products.list()
    assert not isinstance(unreachable.value, ApiTimeoutError) and unreachable.value.status == 0
    assert all(issubclass(c, WarehouseApiError) for c in (NotFoundError, ApiTimeoutError, ServerError))


def test_a_safe_500_is_retried_and_an_unsafe_one_is_not() -> None:
    product = new_product()
    read = f"GET /api/v1/products/{product.id}"
    proxy.fault(read, status=500)
    assert client.products.get(product.id).id == product.id
    assert proxy.fault_seen(read) == 2

    # A PATCH carries an Idempotency-Key, so it is retried too.
    patch = f"PATCH /api/v1/products/{product.id}"
    proxy.fault(patch, status=500)
    assert client.products.patch(product.id, name="Patched once").name == "Patched once"
    assert proxy.fault_seen(patch) == 2

    # A login the server cannot de-duplicate is not repeated.
    login = "POST /api/v1/auth/login"
    proxy.fault(login, status=500)
    with pytest.raises(ServerError) as failed:
        client.auth.login(email=env("WAREHOUSE_EMAIL"), password=env("WAREHOUSE_PASSWORD"))
    assert failed.value.status == 500 and proxy.fault_seen(login) == 1


def test_the_deadline_ends_a_call_stuck_behind_a_long_retry_after() -> None:
    product = new_product()
    read = f"GET /api/v1/products/{product.id}"
    proxy.fault(read, status=429, retry_after=30, times=10)
    started = time.monotonic()
    with pytest.raises(WarehouseApiError) as limited:
        client.products.get(product.id, timeout=3)
    assert limited.value.status == 429 and limited.value.retry_after == 30
    assert time.monotonic() - started < 3 and proxy.fault_seen(read) == 1

    # Within the deadline but beyond the cap: surfaced at once too.
    capped = WarehouseClient(BASE_URL, api_key=env("WAREHOUSE_API_KEY"), max_retry_after=5)
    proxy.fault(read, status=429, retry_after=10, times=10)
    started = time.monotonic()
    with pytest.raises(WarehouseApiError):
        capped.products.get(product.id)
    assert time.monotonic() - started < 3

    # A short one is waited out.
    proxy.fault(read, status=429, retry_after=1, times=1)
    started = time.monotonic()
    assert client.products.get(product.id).id == product.id
    assert time.monotonic() - started >= 1


def test_a_per_call_timeout_cancels_a_call_whose_answer_never_comes() -> None:
    product = new_product()
    read = f"GET /api/v1/products/{product.id}"
    proxy.fault(read, hang=True, times=10)
    started = time.monotonic()
    with pytest.raises(ApiTimeoutError):
        client.products.get(product.id, timeout=1.5)
    elapsed = time.monotonic() - started
    assert 1.4 <= elapsed < 3

    # One deadline over every attempt: short attempts are retried until it passes, not beyond.
    patient = WarehouseClient(BASE_URL, api_key=env("WAREHOUSE_API_KEY"), attempt_timeout=0.5, max_retries=10)
    proxy.fault(read, hang=True, times=10)
    started = time.monotonic()
    with pytest.raises(ApiTimeoutError):
        patient.products.get(product.id, timeout=2.5)
    assert time.monotonic() - started < 3.5 and proxy.fault_seen(read) >= 2


def test_sends_its_user_agent() -> None:
    proxy.clear_log()
    client.health.get()
    assert re.fullmatch(rf"warehouse-api-python/{__version__} \(\w+ [0-9.]+\)", proxy.log()[0]["userAgent"])


def test_the_docs_page_samples_compile_and_call_methods_that_exist() -> None:
    samples = json.loads((Path(__file__).resolve().parents[3] / "src/openapi/code-samples.json").read_text("utf-8"))
    for operation_id, by_language in samples.items():
        source = next(s["source"] for s in by_language if s["lang"] == "python")
        compile(source, operation_id, "exec")
        group, method = re.search(r"client\.(\w+)\.(\w+)\(", source).groups()
        assert callable(getattr(getattr(client, group), method)), operation_id
