import Synchronization

/// A bounded queue between the stages of a delivery pass (due notifications → signed bodies →
/// senders), for several producers and consumers: `push` waits while it is full, `next` while it
/// is empty and not finished. Cancelling a waiting task (shutdown) cancels the queue for everyone,
/// so no stage waits for another that stopped.
final class DeliveryQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var head = 0
        var finished = false
        var cancelled = false
        var takers: [CheckedContinuation<Element?, Never>] = []
        var givers: [(element: Element, continuation: CheckedContinuation<Bool, Never>)] = []
        var count: Int { items.count - head }

        mutating func pop() -> Element? {
            guard head < items.count else { return nil }
            let element = items[head]
            head += 1
            if head >= 256 && head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return element
        }
    }

    private enum Offer {
        case handed(CheckedContinuation<Element?, Never>)
        case queued
        case refused
        case full
    }

    private enum Take {
        case item(Element, giver: CheckedContinuation<Bool, Never>?)
        case ended
        case empty
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds `element`, waiting while the queue is full; false when the queue was cancelled.
    func push(_ element: Element) async -> Bool {
        if Task.isCancelled { cancel(); return false }
        switch state.withLock({ offer(element, &$0) }) {
        case .handed(let taker): taker.resume(returning: element); return true
        case .queued: return true
        case .refused: return false
        case .full: break
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Offer = state.withLock { state in
                    let offer = offer(element, &state)
                    if case .full = offer { state.givers.append((element, continuation)) }
                    return offer
                }
                switch now {
                case .handed(let taker): taker.resume(returning: element); continuation.resume(returning: true)
                case .queued: continuation.resume(returning: true)
                case .refused: continuation.resume(returning: false)
                case .full: break
                }
            }
        } onCancel: { self.cancel() }
    }

    /// The next element, waiting while the queue is empty; nil once it is finished and empty, or cancelled.
    func next() async -> Element? {
        if Task.isCancelled { cancel(); return nil }
        switch state.withLock({ take(&$0) }) {
        case .item(let element, let giver): giver?.resume(returning: true); return element
        case .ended: return nil
        case .empty: break
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let now: Take = state.withLock { state in
                    let take = take(&state)
                    if case .empty = take { state.takers.append(continuation) }
                    return take
                }
                switch now {
                case .item(let element, let giver): giver?.resume(returning: true); continuation.resume(returning: element)
                case .ended: continuation.resume(returning: nil)
                case .empty: break
                }
            }
        } onCancel: { self.cancel() }
    }

    /// No more elements will come: consumers take what is left, then get nil.
    func finish() {
        let takers = state.withLock { state -> [CheckedContinuation<Element?, Never>] in
            state.finished = true
            guard state.count == 0 else { return [] }
            defer { state.takers = [] }
            return state.takers
        }
        for taker in takers { taker.resume(returning: nil) }
    }

    /// Ends the queue at once for everyone: what is queued is dropped.
    func cancel() {
        let (takers, givers) = state.withLock { state in
            state.cancelled = true
            state.items = []
            state.head = 0
            defer { state.takers = []; state.givers = [] }
            return (state.takers, state.givers)
        }
        for taker in takers { taker.resume(returning: nil) }
        for giver in givers { giver.continuation.resume(returning: false) }
    }

    private func offer(_ element: Element, _ state: inout State) -> Offer {
        if state.cancelled || state.finished { return .refused }
        if !state.takers.isEmpty { return .handed(state.takers.removeFirst()) }
        if state.count < capacity {
            state.items.append(element)
            return .queued
        }
        return .full
    }

    private func take(_ state: inout State) -> Take {
        if state.cancelled { return .ended }
        guard let element = state.pop() else { return state.finished ? .ended : .empty }
        // Room now: the first waiting producer's element moves in.
        if !state.givers.isEmpty {
            let giver = state.givers.removeFirst()
            state.items.append(giver.element)
            return .item(element, giver: giver.continuation)
        }
        return .item(element, giver: nil)
    }
}
