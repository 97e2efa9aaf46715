import StoreKit
import Testing

/// The original In-App Purchase API against a live store, through a manager written the way
/// apps write one (`PremiumStore`): products, purchases in StoreKit 1's order, errors as
/// `SKError`, Ask to Buy, restore, the receipt file and `verifyReceipt`, and one truth shared
/// with StoreKit 2.
@Suite(.timeLimit(.minutes(2))) struct StoreKit1Tests {
    @Test func productsAndInvalidIdentifiers() async throws {
        try await SK1TestStore.with { store in
            var device = Device(store, customer: "ana", world: try await store.makeWorld())
            try await device.run { device.manager.requestProducts(["sk1.weekly", "sk1.monthly", "sk1.pro", "sk1.nope"]) }
            #expect(await device.next().map(shape) == ["products [\"sk1.monthly\", \"sk1.pro\", \"sk1.weekly\"] invalid [\"sk1.nope\"]"])

            let weekly = try #require(device.manager.product("sk1.weekly"))
            #expect(weekly.localizedTitle == "Premium Weekly" && weekly.localizedDescription == "Premium, billed every week")
            #expect(weekly.price == NSDecimalNumber(string: "0.99"))
            let formatter = NumberFormatter()
            formatter.numberStyle = .currency
            formatter.locale = weekly.priceLocale
            #expect(formatter.string(from: weekly.price) == "$0.99")
            #expect(weekly.subscriptionPeriod?.unit == .week && weekly.subscriptionPeriod?.numberOfUnits == 1)
            #expect(weekly.subscriptionGroupIdentifier == "PG" && weekly.introductoryPrice == nil && weekly.discounts.isEmpty)

            let monthly = try #require(device.manager.product("sk1.monthly"))
            let intro = try #require(monthly.introductoryPrice)
            #expect(intro.type == .introductory && intro.paymentMode == .freeTrial && intro.identifier == nil)
            #expect(intro.subscriptionPeriod.unit == .day && intro.subscriptionPeriod.numberOfUnits == 3)
            let promo = try #require(monthly.discounts.first)
            #expect(promo.type == .subscription && promo.identifier == "promo" && promo.paymentMode == .payAsYouGo)
            #expect(promo.numberOfPeriods == 2 && promo.price == NSDecimalNumber(string: "1.49"))
            #expect(monthly.isFamilyShareable && !weekly.isFamilyShareable)

            let pro = try #require(device.manager.product("sk1.pro"))
            #expect(pro.subscriptionPeriod == nil && pro.subscriptionGroupIdentifier == nil && !pro.isDownloadable)
        }
    }

    @Test func aPurchaseIsPurchasingThenPurchasedThenFinishedAndStoreKit2SeesIt() async throws {
        try await SK1TestStore.with { store in
            let world = try await store.makeWorld()
            var device = Device(store, customer: "ben", world: world)
            // StoreKit 2 listens on the same device.
            let connection = device.connection
            let storeKit2 = Task { await OpenStoreKit.withConnection(connection) { () -> String? in
                for await result in Transaction.updates { return String(result.unsafePayloadValue.id) }
                return nil
            } }
            try await device.run {
                device.manager.start()
                device.manager.requestProducts(["sk1.pro"])
            }
            _ = await device.next()
            try await store.waitForFeeds(2)
            try await device.run { device.manager.buy(try #require(device.manager.product("sk1.pro"))) }

            let events = await device.next(3)
            #expect(events.map(shape) == ["sk1.pro purchasing", "sk1.pro purchased", "removed sk1.pro"])
            let id = try #require(transactionID(events[1]))
            #expect(await storeKit2.value == id)
            try await device.run {
                #expect(await ids(Transaction.currentEntitlements) == [id])
                #expect(await ids(Transaction.unfinished) == [])
                #expect(SKPaymentQueue.default().transactions.isEmpty)
                // The receipt file was written before the observer heard of the purchase.
                let answer = try await device.manager.validateReceipt()
                #expect(answer["status"] as? Int == 0 && answer["environment"] as? String == "Sandbox")
                let inApp = ((answer["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]]) ?? []
                #expect(inApp.compactMap { $0["transaction_id"] as? String } == [id])
                device.manager.stop()
            }
        }
    }

    @Test func aStoreKit2PurchaseReachesTheObserverAndFinishingIsShared() async throws {
        try await SK1TestStore.with { store in
            var device = Device(store, customer: "cal", world: try await store.makeWorld())
            device.manager.finishesTransactions = false
            try await device.run { device.manager.start() }
            try await store.waitForFeeds(1)
            let bought = try await device.run { () -> String in
                let coins = try #require(try await Product.products(for: ["sk1.coins"]).first)
                guard case .success(let result) = try await coins.purchase() else { throw SK1TestFailure("not purchased") }
                return String(result.unsafePayloadValue.id)
            }
            let events = await device.next()
            #expect(events.map(shape) == ["sk1.coins purchased"] && transactionID(events.first) == bought)
            try await device.run {
                let queue = SKPaymentQueue.default()
                let transaction = try #require(queue.transactions.first)
                #expect(await ids(Transaction.unfinished) == [bought])
                queue.finishTransaction(transaction)
            }
            #expect(await device.next().map(shape) == ["removed sk1.coins"])
            try await device.run {
                #expect(await ids(Transaction.unfinished) == [])
                device.manager.stop()
            }
        }
    }

    @Test func aSimulatedErrorFailsWithSKError() async throws {
        try await SK1TestStore.with { store in
            let world = try await store.makeWorld()
            var device = Device(store, customer: "dee", world: world)
            try await device.run {
                device.manager.start()
                device.manager.requestProducts(["sk1.coins"])
            }
            _ = await device.next()
            let coins = try #require(device.manager.product("sk1.coins"))
            try await store.simulate("purchase", "purchaseNotAllowed", world: world)
            try await device.run { device.manager.buy(coins) }
            #expect(await device.next(3).map(shape) == ["sk1.coins purchasing", "sk1.coins failed paymentNotAllowed", "removed sk1.coins"])
            try await store.simulate("purchase", "userCancelled", world: world)
            try await device.run { device.manager.buy(coins) }
            #expect(await device.next(3).map(shape) == ["sk1.coins purchasing", "sk1.coins failed paymentCancelled", "removed sk1.coins"])
            // A product the store does not sell, and requestData (reserved by Apple).
            try await store.simulate("purchase", nil, world: world)
            let unknown = SKMutablePayment()
            unknown.productIdentifier = "sk1.nope"
            let reserved = SKMutablePayment(product: coins)
            reserved.requestData = Data([1])
            try await device.run {
                device.manager.buy(unknown)
                device.manager.buy(reserved)
            }
            let failures = await device.next(6).map(shape).filter { $0.contains("failed") }
            #expect(Set(failures) == ["sk1.nope failed paymentInvalid", "sk1.coins failed unauthorizedRequestData"])
            try await device.run { device.manager.stop() }
        }
    }

    @Test func askToBuyIsDeferredThenPurchased() async throws {
        try await SK1TestStore.with { store in
            let world = try await store.makeWorld()
            var device = Device(store, customer: "eli", world: world)
            try await device.run {
                device.manager.start()
                device.manager.requestProducts(["sk1.pro"])
            }
            _ = await device.next()
            try await store.waitForFeeds(1)
            let payment = SKMutablePayment(product: try #require(device.manager.product("sk1.pro")))
            payment.simulatesAskToBuyInSandbox = true
            try await device.run { device.manager.buy(payment) }
            #expect(await device.next(2).map(shape) == ["sk1.pro purchasing", "sk1.pro deferred"])
            try await store.approveAskToBuy(world: world)
            let approved = await device.next(2)
            #expect(approved.map(shape) == ["sk1.pro purchased", "removed sk1.pro"])
            let approvedID = try #require(transactionID(approved.first))
            try await device.run {
                #expect(await ids(Transaction.currentEntitlements) == [approvedID])
                device.manager.stop()
            }
        }
    }

    @Test func restoreOnAFreshDeviceGivesRestoredTransactions() async throws {
        try await SK1TestStore.with { store in
            let world = try await store.makeWorld()
            var phone = Device(store, customer: "fay", world: world)
            try await phone.run {
                phone.manager.start()
                phone.manager.requestProducts(["sk1.pro", "sk1.weekly", "sk1.coins"])
            }
            _ = await phone.next()
            var bought: [String: String] = [:]
            for id in ["sk1.pro", "sk1.weekly", "sk1.coins"] {
                try await phone.run { phone.manager.buy(try #require(phone.manager.product(id))) }
                bought[id] = transactionID(await phone.next(3)[1])
            }
            try await phone.run { phone.manager.stop() }

            // Another device of the same account, freshly installed: no receipt yet. (Both devices
            // live in this process, where the receipt file is per account and app: the phone's goes.)
            var tablet = Device(store, customer: "fay", world: world)
            try await tablet.run {
                let receipt = try #require(tablet.manager.receiptURL)
                try FileManager.default.removeItem(at: receipt)
                tablet.manager.start()
                tablet.manager.restorePurchases()
            }
            // Both restored (consumables are not), then the restore finished; the app finishes each.
            let restored = await tablet.next(5)
            #expect(Set(restored.prefix(2).map(shape)) == ["sk1.pro restored", "sk1.weekly restored"])
            #expect(Set(restored.suffix(3).map(shape)) == ["restore finished", "removed sk1.pro", "removed sk1.weekly"])
            #expect(Set(restored.compactMap(transactionID)) == Set([bought["sk1.pro"], bought["sk1.weekly"]].compactMap { $0 }))
            try await tablet.run {
                // The restore wrote the receipt again.
                let answer = try await tablet.manager.validateReceipt()
                #expect(answer["status"] as? Int == 0)
                tablet.manager.stop()
            }
        }
    }

    @Test func aRenewalAfterTimeAdvanceIsInTheRefreshedReceipt() async throws {
        try await SK1TestStore.with { store in
            let world = try await store.makeWorld()
            var device = Device(store, customer: "gus", world: world)
            try await device.run {
                device.manager.start()
                device.manager.requestProducts(["sk1.weekly"])
            }
            _ = await device.next()
            try await device.run { device.manager.buy(try #require(device.manager.product("sk1.weekly"))) }
            let first = try #require(transactionID(await device.next(3)[1]))
            try await store.advanceTime("P8D", world: world)
            // The renewal reaches the observer as a new purchased transaction.
            let renewal = await device.next(2)
            #expect(renewal.map(shape) == ["sk1.weekly purchased", "removed sk1.weekly"])
            let second = try #require(transactionID(renewal.first))
            #expect(second != first)

            try await device.run { device.manager.refreshReceipt() }
            #expect(await device.next().map(shape) == ["receipt refreshed"])
            try await device.run {
                let answer = try await device.manager.validateReceipt()
                let inApp = ((answer["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]]) ?? []
                #expect(Set(inApp.compactMap { $0["transaction_id"] as? String }) == [first, second])
                let latest = try #require((answer["latest_receipt_info"] as? [[String: Any]])?.last)
                #expect(latest["transaction_id"] as? String == second && latest["original_transaction_id"] as? String == first)
                device.manager.stop()
            }
        }
    }

    @Test func unfinishedTransactionsArriveAgainAtLaunch() async throws {
        try await SK1TestStore.with { store in
            let world = try await store.makeWorld()
            var first = Device(store, customer: "hal", world: world)
            first.manager.finishesTransactions = false
            try await first.run {
                first.manager.start()
                first.manager.requestProducts(["sk1.coins"])
            }
            _ = await first.next()
            try await first.run { first.manager.buy(try #require(first.manager.product("sk1.coins"))) }
            let bought = try #require(transactionID(await first.next(2)[1]))
            try await first.run { first.manager.stop() }

            // The app launches again (a new queue on a new connection): the coins come back.
            var relaunched = Device(store, customer: "hal", world: world)
            try await relaunched.run { relaunched.manager.start() }
            let again = await relaunched.next(2)
            #expect(again.map(shape) == ["sk1.coins purchased", "removed sk1.coins"] && transactionID(again.first) == bought)
            try await relaunched.run {
                #expect(await ids(Transaction.unfinished) == [])
                relaunched.manager.stop()
            }
        }
    }

    @Test func promotionalOffersAreSignedAsApplesAre() async throws {
        try await SK1TestStore.with { store in
            let world = try await store.makeWorld()
            var device = Device(store, customer: "ivy", world: world)
            try await device.run {
                device.manager.start()
                device.manager.requestProducts(["sk1.monthly"])
            }
            _ = await device.next()
            let monthly = try #require(device.manager.product("sk1.monthly"))
            // A signature that does not hold: StoreKit 1's invalidSignature.
            let forged = SKMutablePayment(product: monthly)
            forged.paymentDiscount = SKPaymentDiscount(identifier: "promo", keyIdentifier: "KEY", nonce: UUID(),
                                                       signature: Data("not a signature".utf8).base64EncodedString(),
                                                       timestamp: NSNumber(value: Int(Date().timeIntervalSince1970 * 1000)))
            try await device.run { device.manager.buy(forged) }
            #expect(await device.next(3).map(shape) == ["sk1.monthly purchasing", "sk1.monthly failed invalidSignature", "removed sk1.monthly"])
            // Signed by the developer's server with an In-App Purchase key of the store, but for a
            // customer who never subscribed to the group: not eligible.
            func signedPayment() async throws -> SKMutablePayment {
                let signed = try await store.promotionalOffer(product: "sk1.monthly", offer: "promo", world: world)
                let payment = SKMutablePayment(product: monthly)
                payment.paymentDiscount = SKPaymentDiscount(identifier: "promo", keyIdentifier: signed.keyID, nonce: signed.nonce,
                                                            signature: signed.signature, timestamp: NSNumber(value: signed.timestamp))
                return payment
            }
            let early = try await signedPayment()
            try await device.run { device.manager.buy(early) }
            #expect(await device.next(3).map(shape) == ["sk1.monthly purchasing", "sk1.monthly failed ineligibleForOffer", "removed sk1.monthly"])
            // A subscriber of the group gets it.
            try await device.run { device.manager.requestProducts(["sk1.weekly"]) }
            _ = await device.next()
            try await device.run { device.manager.buy(try #require(device.manager.product("sk1.weekly"))) }
            #expect(await device.next(3).map(shape) == ["sk1.weekly purchasing", "sk1.weekly purchased", "removed sk1.weekly"])
            let payment = try await signedPayment()
            try await device.run { device.manager.buy(payment) }
            #expect(await device.next(3).map(shape) == ["sk1.monthly purchasing", "sk1.monthly purchased", "removed sk1.monthly"])
            try await device.run {
                let entitlement = try #require(await Transaction.currentEntitlement(for: "sk1.monthly"))
                #expect(entitlement.unsafePayloadValue.offer?.id == "promo")
                device.manager.stop()
            }
        }
    }

    @Test func aStoreThatCannotBeReachedFailsWithSKError() async throws {
        _ = testReceiptFolder
        // Nothing listens on port 1.
        let unreachable = StoreConnection(OpenStoreKit.Configuration(
            store: URL(string: "http://127.0.0.1:1")!, bundleID: SK1TestStore.bundle, customer: "ned", createsCustomer: true))
        let manager = PremiumStore(sharedSecret: SK1TestStore.sharedSecret, verifyReceiptHost: URL(string: "http://127.0.0.1:1")!)
        var events = manager.events.makeAsyncIterator()
        await OpenStoreKit.withConnection(unreachable) {
            manager.start()
            manager.requestProducts(["sk1.pro"])
        }
        #expect(await events.next().map(shape) == "request failed cloudServiceNetworkConnectionFailed")
        let payment = SKMutablePayment()
        payment.productIdentifier = "sk1.pro"
        await OpenStoreKit.withConnection(unreachable) { manager.buy(payment) }
        #expect(await events.next().map(shape) == "sk1.pro purchasing")
        let failed = await events.next()
        #expect(failed.map(shape) == "sk1.pro failed cloudServiceNetworkConnectionFailed")
        #expect(await events.next().map(shape) == "removed sk1.pro")
        await OpenStoreKit.withConnection(unreachable) { manager.restorePurchases() }
        #expect(await events.next().map(shape) == "restore failed cloudServiceNetworkConnectionFailed")
        await OpenStoreKit.withConnection(unreachable) { manager.refreshReceipt() }
        #expect(await events.next().map(shape) == "request failed cloudServiceNetworkConnectionFailed")
        await OpenStoreKit.withConnection(unreachable) { manager.stop() }
    }

    @Test func aPromotedPurchaseAsksTheObserverAndTheQueueKnowsTheStorefront() async throws {
        try await SK1TestStore.with { store in
            var device = Device(store, customer: "jo", world: try await store.makeWorld())
            try await device.run { device.manager.start() }
            // The queue reads the storefront before it listens to the store.
            try await store.waitForFeeds(1)
            try await device.run {
                let storefront = try #require(SKPaymentQueue.default().storefront)
                #expect(storefront.countryCode == "USA")
                #expect(SKPaymentQueue.canMakePayments())
            }
            // Declined: nothing is bought.
            device.manager.acceptsStorePayments = false
            #expect(try await device.run { try await SKPaymentQueue.default().receiveStorePayment(productIdentifier: "sk1.pro") } == false)
            #expect(await device.next().map(shape) == ["store payment sk1.pro"])
            // Accepted: the payment is added and goes through as any other.
            device.manager.acceptsStorePayments = true
            #expect(try await device.run { try await SKPaymentQueue.default().receiveStorePayment(productIdentifier: "sk1.pro") })
            #expect(await device.next(4).map(shape) == ["store payment sk1.pro", "sk1.pro purchasing", "sk1.pro purchased", "removed sk1.pro"])
            // A product the app does not sell.
            await #expect(throws: SKError(.storeProductNotAvailable)) {
                try await device.run { try await SKPaymentQueue.default().receiveStorePayment(productIdentifier: "sk1.nope") }
            }
            try await device.run { device.manager.stop() }
        }
    }

    /// Products load with nobody signed in, as on a device (issue #28); a payment by an account the
    /// store does not have (and may not create) fails with `clientInvalid`.
    @Test func anAccountTheStoreDoesNotHaveIsClientInvalid() async throws {
        try await SK1TestStore.with { store in
            _ = testReceiptFolder
            let stranger = StoreConnection(OpenStoreKit.Configuration(
                store: store.url, bundleID: SK1TestStore.bundle, customer: "nobody", createsCustomer: false))
            let manager = PremiumStore(sharedSecret: SK1TestStore.sharedSecret, verifyReceiptHost: store.url)
            var events = manager.events.makeAsyncIterator()
            await OpenStoreKit.withConnection(stranger) { manager.requestProducts(["sk1.pro"]) }
            #expect(await events.next().map(shape) == "products [\"sk1.pro\"] invalid []")
            await OpenStoreKit.withConnection(stranger) {
                manager.start()
                let payment = SKMutablePayment()
                payment.productIdentifier = "sk1.pro"
                manager.buy(payment)
            }
            var seen: [String] = []
            while seen.count < 3, let event = await events.next() { seen.append(shape(event)) }
            #expect(seen.contains("sk1.pro failed clientInvalid"), "\(seen)")
            await OpenStoreKit.withConnection(stranger) { manager.stop() }
        }
    }

    @Test func anOfferCodeRedeemedReachesTheObserver() async throws {
        try await SK1TestStore.with { store in
            let world = try await store.makeWorld()
            try await store.admin(.POST, "/admin/v1/worlds/\(world)/apps/\(SK1TestStore.bundle)/offer-codes",
                                  ["offer": "FREEWEEK", "codes": ["SUMMER"]])
            var device = Device(store, customer: "kai", world: world)
            try await device.run {
                device.manager.start()
                // No sheet here: the code the customer would type goes to redeemOfferCode.
                SKPaymentQueue.default().presentCodeRedemptionSheet()
                try await SKPaymentQueue.default().redeemOfferCode("SUMMER")
            }
            #expect(await device.next(2).map(shape) == ["sk1.monthly purchased", "removed sk1.monthly"])
            await #expect(throws: SKError.self) { try await device.run { try await SKPaymentQueue.default().redeemOfferCode("NOPE") } }
            try await device.run {
                let entitlement = try #require(await Transaction.currentEntitlement(for: "sk1.monthly"))
                #expect(entitlement.unsafePayloadValue.offer?.type == .code)
                device.manager.stop()
            }
        }
    }
}
