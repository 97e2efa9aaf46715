"""The Retention Messaging API (`/inApps/v1/messaging/…`) driven by Apple's own
`AppStoreServerAPIClient` (app-store-server-library 3.1.2): images, messages, default messages and
the realtime URL, with Apple's error codes. Images and messages are approved at once here (Apple
reviews them).

The performance test (Initiate Performance Test, Get Performance Test Results; Retention Messaging
API 1.3.0) really calls a realtime receiver on loopback: Apple's `SignedDataVerifier`
(`verify_and_decode_realtime_request`) checks every request the store sends, and the verdict,
`successRate` and `failures` by `SendAttemptResult` are checked against what the receiver did.
Apple: "To pass the performance test, your server must respond to requests within approximately
700 ms in the sandbox environment."
"""

from __future__ import annotations

import json
import struct
import threading
import time
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from appstoreserverlibrary.api_client import APIException
from appstoreserverlibrary.models.BulletPoint import BulletPoint
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.HeaderPosition import HeaderPosition
from appstoreserverlibrary.models.ImageSize import ImageSize
from appstoreserverlibrary.models.ImageState import ImageState
from appstoreserverlibrary.models.MessageState import MessageState
from appstoreserverlibrary.models.PerformanceTestRequest import PerformanceTestRequest
from appstoreserverlibrary.models.PerformanceTestStatus import PerformanceTestStatus
from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody

from openstore_harness import StoreClient, make_verifier
from test_notifications import APPLE_ID, api_client, create_key, start

BUNDLE = "com.example.retention"
YEARLY = "compat.plus.yearly"


def png(width: int = 2, height: int = 2) -> bytes:
    """A real (tiny, grey) PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def code(call) -> int:
    with pytest.raises(APIException) as error:
        call()
    return error.value.raw_api_error


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("retention")
    server = start(tmp, "retention", BUNDLE, "Sandbox")
    try:
        yield server, api_client(server, create_key(server, tmp, BUNDLE), Environment.SANDBOX)
    finally:
        server.stop()


@pytest.fixture(scope="module")
def client(served):
    return served[1]


def test_images(client):
    full, bullet = uuid.uuid4(), uuid.uuid4()
    client.upload_image(full, png())
    client.upload_image(bullet, png(), ImageSize.BULLET_POINT)
    items = {i.imageIdentifier: i for i in client.get_image_list().imageIdentifiers}
    assert items[full].imageState == ImageState.APPROVED and items[full].imageSize == ImageSize.FULL_SIZE
    assert items[bullet].imageSize == ImageSize.BULLET_POINT
    assert code(lambda: client.upload_image(full, png())) == 4090000          # IMAGE_ALREADY_EXISTS
    assert code(lambda: client.upload_image(uuid.uuid4(), b"GIF89a not a png")) == 4000161  # INVALID_IMAGE
    client.delete_image(bullet)
    assert bullet not in {i.imageIdentifier for i in client.get_image_list().imageIdentifiers}
    assert code(lambda: client.delete_image(bullet)) == 4040014                # IMAGE_NOT_FOUND


def test_messages_and_their_limits(client):
    image, message = uuid.uuid4(), uuid.uuid4()
    client.upload_image(image, png())
    body = UploadMessageRequestBody(header="Stay with us", body="Your plan keeps your birds fed all year.",
                                    image=UploadMessageImage(imageIdentifier=image, altText="A bird"),
                                    headerPosition=HeaderPosition.ABOVE_IMAGE,
                                    bulletPoints=[BulletPoint(text="Seeds", imageIdentifier=image, altText="Seeds")])
    client.upload_message(message, body)
    states = {m.messageIdentifier: m.messageState for m in client.get_message_list().messageIdentifiers}
    assert states[message] == MessageState.APPROVED
    assert code(lambda: client.upload_message(message, body)) == 4090001       # MESSAGE_ALREADY_EXISTS
    assert code(lambda: client.delete_image(image)) == 4030019                 # IMAGE_IN_USE
    assert code(lambda: client.upload_message(uuid.uuid4(), UploadMessageRequestBody(
        header="Hi", body="Body", headerPosition=HeaderPosition.ABOVE_IMAGE))) == 4000224
    assert code(lambda: client.upload_message(uuid.uuid4(), UploadMessageRequestBody(
        header="Hi", body="Body", image=UploadMessageImage(imageIdentifier=uuid.uuid4(), altText="x")))) == 4040014
    # Apple's client refuses over-long fields itself, so these go through its request code unchecked.
    path = f"/inApps/v1/messaging/message/{uuid.uuid4()}"
    assert code(lambda: client._make_request(path, "PUT", {}, {"header": "h" * 67, "body": "b"}, None)) == 4000162
    assert code(lambda: client._make_request(path, "PUT", {}, {"header": "h", "body": "b" * 145}, None)) == 4000163
    bullets = [{"text": "t", "imageIdentifier": str(image), "altText": "a"}] * 6
    assert code(lambda: client._make_request(path, "PUT", {}, {"header": "h", "body": "b", "bulletPoints": bullets}, None)) == 4000218
    client.delete_message(message)
    assert code(lambda: client.delete_message(message)) == 4040015             # MESSAGE_NOT_FOUND
    client.delete_image(image)


def test_default_messages_and_the_realtime_url(client):
    message = uuid.uuid4()
    client.upload_message(message, UploadMessageRequestBody(header="Stay", body="Please stay."))
    assert code(lambda: client.get_default_message(YEARLY, "en-US")) == 4040020
    client.configure_default_message(YEARLY, "en-US", DefaultConfigurationRequest(messageIdentifier=message))
    assert client.get_default_message(YEARLY, "en-US").messageIdentifier == message
    assert code(lambda: client.configure_default_message(YEARLY, "en-US", DefaultConfigurationRequest(messageIdentifier=uuid.uuid4()))) == 4040015
    assert code(lambda: client.configure_default_message(YEARLY, "not a locale!", DefaultConfigurationRequest(messageIdentifier=message))) == 4000164
    assert code(lambda: client.configure_default_message("compat.coins", "en-US", DefaultConfigurationRequest(messageIdentifier=message))) == 4000023
    client.delete_default_message(YEARLY, "en-US")
    assert code(lambda: client.delete_default_message(YEARLY, "en-US")) == 4040020

    assert code(lambda: client.get_realtime_url()) == 4040021
    client.configure_realtime_url(RealtimeUrlRequest(realtimeURL="https://example.com/retention"))
    assert client.get_realtime_url().realtimeURL == "https://example.com/retention"
    assert code(lambda: client.configure_realtime_url(RealtimeUrlRequest(realtimeURL="http://example.com/plain"))) == 4000215
    client.delete_realtime_url()
    assert code(lambda: client.delete_realtime_url()) == 4040021


class RealtimeReceiver:
    """A developer's Get Retention Message endpoint on loopback. It keeps every request's
    `signedPayload` (for Apple's verifier, `verify`) and answers the n-th request to arrive
    (0-based) as `answer(n)` says: ("ok", body), ("status", code) or ("slow", seconds)."""

    def __init__(self, answer):
        self.received, self.decoded, self.errors, self.in_flight, self.most_in_flight = [], [], [], 0, 0
        self.arrived = 0
        lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                with lock:
                    n = outer.arrived
                    outer.arrived += 1
                    outer.in_flight += 1
                    outer.most_in_flight = max(outer.most_in_flight, outer.in_flight)
                try:
                    body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                    with lock:
                        outer.received.append(body["signedPayload"])
                    kind, value = answer(n)
                    if kind == "slow":
                        time.sleep(value)
                        kind, value = "ok", {}
                    code, payload = (200, json.dumps(value).encode()) if kind == "ok" else (value, b"{}")
                    try:
                        self.send_response(code)
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(payload)))
                        self.end_headers()
                        self.wfile.write(payload)
                    except OSError:
                        pass  # the store gave up waiting: that is the point of a slow answer
                finally:
                    with lock:
                        outer.in_flight -= 1

            def log_message(self, *args):
                pass

        class Server(ThreadingHTTPServer):
            request_queue_size = 128   # http.server's backlog of 5 drops the store's concurrent connects
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/retention"

    def verify(self, verifier):
        """Apple's verifier on every request received (after the answers, so checking signatures
        never slows the endpoint down)."""
        for signed in self.received:
            try:
                self.decoded.append(verifier.verify_and_decode_realtime_request(signed))
            except Exception as error:  # the test fails on any
                self.errors.append(repr(error))
        return self.decoded

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def run_test(client, original_transaction_id, while_running=None):
    """Initiates a test and polls its results until it is over (a bound on a hang, not a speed
    assertion: the test's own `totalDuration` is a few seconds)."""
    started = client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=original_transaction_id))
    if while_running:
        while_running()
    assert started.config.responseTimeThreshold == 700       # "within approximately 700 ms"
    assert started.config.totalRequests > 0 and 0 < started.config.maxConcurrentRequests <= started.config.totalRequests
    assert started.config.totalDuration > 0 and 0 < started.config.successRateThreshold <= 100
    deadline = time.monotonic() + 60
    while True:
        result = client.get_performance_test_results(started.requestId)
        assert result.config == started.config
        if result.result != PerformanceTestStatus.PENDING:
            return started, result
        # Every call may be done while the result is still being recorded: 0 pending, still PENDING.
        assert 0 <= result.numPending <= started.config.totalRequests
        assert time.monotonic() < deadline, "the performance test never finished"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def subscriber(served):
    server, _ = served
    store = StoreClient(server.base_url, server)
    bought = store.buy(BUNDLE, YEARLY, f"perf-{uuid.uuid4().hex[:8]}")["transaction"]
    verifier = make_verifier(store.root_der(), BUNDLE, Environment.SANDBOX, APPLE_ID)
    return bought["originalTransactionId"], verifier


def test_performance_test_passes_a_fast_endpoint_and_apples_verifier_reads_every_request(served, subscriber):
    server, client = served
    original, verifier = subscriber
    # Apple's doc (Message): "you can choose from mutually exclusive options"; one is a valid answer.
    receiver = RealtimeReceiver(lambda n: ("ok", {"message": {"messageIdentifier": str(uuid.uuid4())}}))
    try:
        client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=receiver.url))
        started, result = run_test(client, original)
        config = started.config
        assert result.result == PerformanceTestStatus.PASS
        assert result.successRate == 100 and result.numPending == 0 and not result.failures, result.failures
        assert result.target == receiver.url
        times = result.responseTimes
        assert 0 <= times.p50 <= times.p90 <= times.p95 <= times.p99 <= config.responseTimeThreshold
        # The store really called the endpoint, totalRequests times, never more at once than allowed.
        assert len(receiver.verify(verifier)) == config.totalRequests and receiver.errors == []
        assert 1 <= receiver.most_in_flight <= config.maxConcurrentRequests
        first = receiver.decoded[0]
        assert first.originalTransactionId == original and first.productId == YEARLY
        assert first.appAppleId == APPLE_ID and first.environment == Environment.SANDBOX and first.userLocale == "en-US"
        assert len({d.requestIdentifier for d in receiver.decoded}) == config.totalRequests
        assert code(lambda: client.get_performance_test_results(str(uuid.uuid4()))) == 4040018   # PERFORMANCE_TEST_RUN_NOT_FOUND
        assert code(lambda: client.get_performance_test_results("not-a-uuid")) == 4000212        # INVALID_REQUEST_ID
    finally:
        receiver.stop()


def test_performance_test_fails_a_slow_or_failing_endpoint_and_counts_failures_by_send_attempt_result(served, subscriber):
    server, client = served
    original, verifier = subscriber

    def answer(n):
        if n % 5 == 3:
            return ("status", 500)          # UNSUCCESSFUL_HTTP_RESPONSE_CODE
        if n % 5 == 4:
            return ("slow", 1.5)            # past 700 ms: TIMED_OUT
        if n % 5 == 2:
            return ("ok", {"message": {"messageIdentifier": str(uuid.uuid4())},
                           "alternateProduct": {"messageIdentifier": str(uuid.uuid4()), "productId": YEARLY}})  # two options: INVALID_RESPONSE
        return ("ok", {})

    receiver = RealtimeReceiver(answer)
    try:
        client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=receiver.url))
        # One test of an app at a time: EXISTING_PERFORMANCE_TEST_RUN while this one runs.
        started, result = run_test(client, original, while_running=lambda: _assert_code(
            lambda: client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=original)), 4000213))
        total = started.config.totalRequests
        fifth = total // 5
        assert total % 5 == 0 and len(receiver.verify(verifier)) == total and receiver.errors == []
        assert result.result == PerformanceTestStatus.FAIL and result.numPending == 0
        assert result.successRate == 40 < started.config.successRateThreshold
        assert result.failures == {SendAttemptResult.UNSUCCESSFUL_HTTP_RESPONSE_CODE: fifth,
                                   SendAttemptResult.TIMED_OUT: fifth, SendAttemptResult.INVALID_RESPONSE: fifth}
    finally:
        receiver.stop()


def test_performance_test_requests_apple_refuses(served, subscriber):
    server, client = served
    original, _ = subscriber
    client.delete_realtime_url() if _has_url(client) else None
    assert code(lambda: client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=original))) == 4040021
    client.configure_realtime_url(RealtimeUrlRequest(realtimeURL="https://example.com/retention"))
    store = StoreClient(server.base_url, server)
    coins = store.buy(BUNDLE, "compat.coins", f"perf-{uuid.uuid4().hex[:8]}")["transaction"]["transactionId"]
    # PerformanceTestRequest: "The transaction is for an active auto-renewable subscription."
    assert code(lambda: client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=coins))) == 4000211
    assert code(lambda: client.initiate_performance_test(PerformanceTestRequest(originalTransactionId="9999999999999"))) == 4040010
    assert code(lambda: client.initiate_performance_test(PerformanceTestRequest(originalTransactionId="abc"))) == 4000008
    client.delete_realtime_url()


def _has_url(client) -> bool:
    try:
        client.get_realtime_url()
        return True
    except APIException:
        return False


def _assert_code(call, expected: int) -> None:
    assert code(call) == expected
