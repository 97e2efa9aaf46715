"""The Retention Messaging API (`/inApps/v1/messaging/…`) driven by Apple's own
`AppStoreServerAPIClient` (app-store-server-library 3.1.2): images, messages, default messages and
the realtime URL, with Apple's error codes. Images and messages are approved at once here (Apple
reviews them); the performance test is not served.
"""

from __future__ import annotations

import struct
import uuid
import zlib

import pytest
from appstoreserverlibrary.api_client import APIException
from appstoreserverlibrary.models.BulletPoint import BulletPoint
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.HeaderPosition import HeaderPosition
from appstoreserverlibrary.models.ImageSize import ImageSize
from appstoreserverlibrary.models.ImageState import ImageState
from appstoreserverlibrary.models.MessageState import MessageState
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody

from test_notifications import api_client, create_key, start

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
def client(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("retention")
    server = start(tmp, "retention", BUNDLE, "Sandbox")
    try:
        yield api_client(server, create_key(server, tmp, BUNDLE), Environment.SANDBOX)
    finally:
        server.stop()


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
