"""Family Sharing notifications against a live store, checked by Apple's own library.

A family organizer buys a family-shareable subscription: the purchaser's notification carries
`PURCHASED`, and the family member gets one of its own with `FAMILY_SHARED`, the member's own
transaction and the renewal info as the member sees it (docs/notifications.md, "Family Sharing").
Every payload must verify with `SignedDataVerifier`.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType

from notification_receiver import Receiver
from openstore_harness import FIXTURES, CatalogApp, ServerProcess, StoreClient, make_verifier, openstore_bin
from test_notifications import admin, set_url

BUNDLE = "com.example.family.notify"
WEEKLY = "compat.news.weekly"  # P1W, no introductory offer
APPLE_ID = 1_700_000_779


def shareable_catalog(tmp: Path) -> Path:
    """compat.storekit with the weekly subscription made family-shareable."""
    catalog = json.loads((FIXTURES / "compat.storekit").read_text())
    for group in catalog["subscriptionGroups"]:
        for subscription in group["subscriptions"]:
            if subscription["productID"] == WEEKLY:
                subscription["familyShareable"] = True
    path = tmp / "family.storekit"
    path.write_text(json.dumps(catalog))
    return path


def test_a_family_member_gets_notifications_of_its_own(tmp_path):
    server = ServerProcess(openstore_bin(), data_dir=tmp_path / "data", log_path=tmp_path / "server.log",
                           apps=[CatalogApp(shareable_catalog(tmp_path), BUNDLE, app_apple_id=APPLE_ID,
                                            environment="Sandbox")]).start()
    receiver = Receiver()
    try:
        set_url(server, BUNDLE, receiver.url, "Sandbox")
        store = StoreClient(server.base_url, server)
        organizer, member = f"org-{uuid.uuid4().hex[:6]}", f"kid-{uuid.uuid4().hex[:6]}"
        group = f"fam-{uuid.uuid4().hex[:6]}"
        for customer in (organizer, member):
            store.buy(BUNDLE, "compat.coins", customer)  # both customers exist (and each gets ONE_TIME_CHARGE)
            admin(server, "PUT", f"/customers/{customer}/family", {"group": group})
        receiver.wait_for(2)

        bought = store.buy(BUNDLE, WEEKLY, organizer)["transaction"]
        signed = receiver.wait_for(4)[2:]
        admin(server, "POST", "/time/advance", {"duration": "8d"})  # one renewal
        signed += receiver.wait_for(6)[4:]

        verifier = make_verifier(store.root_der(), BUNDLE, Environment.SANDBOX, app_apple_id=APPLE_ID)
        seen = []
        for payload in signed:
            n = verifier.verify_and_decode_notification(payload)
            t = verifier.verify_and_decode_signed_transaction(n.data.signedTransactionInfo)
            info = verifier.verify_and_decode_renewal_info(n.data.signedRenewalInfo)
            assert t.productId == WEEKLY and info.originalTransactionId == t.originalTransactionId
            assert n.data.status is not None and n.data.status.value == 1
            seen.append((n.notificationType.value, n.subtype.value if n.subtype else None, t.inAppOwnershipType, t))

        purchased = [s for s in seen if s[2] == InAppOwnershipType.PURCHASED]
        shared = [s for s in seen if s[2] == InAppOwnershipType.FAMILY_SHARED]
        assert [(s[0], s[1]) for s in purchased] == [("SUBSCRIBED", "INITIAL_BUY"), ("DID_RENEW", None)]
        assert [(s[0], s[1]) for s in shared] == [("SUBSCRIBED", "INITIAL_BUY"), ("DID_RENEW", None)]
        assert purchased[0][3].transactionId == bought["transactionId"]
        # The member's transactions are its own, in a chain of its own, and carry no account token.
        member_ids = {s[3].transactionId for s in shared}
        assert not member_ids & {s[3].transactionId for s in purchased}
        assert shared[1][3].originalTransactionId == shared[0][3].transactionId
        assert all(s[3].appAccountToken is None for s in shared)
    finally:
        receiver.stop()
        server.stop()
