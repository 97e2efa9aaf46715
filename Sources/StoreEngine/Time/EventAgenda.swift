/// The scheduler's agenda: chains keyed by when their next event is due, soonest first.
/// Entries go stale when a chain is rescheduled; the scheduler skips those by checking the chain.
struct EventAgenda: Sendable {
    private var heap: [(due: Int64, originalId: Int64)] = []

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    var next: (due: Int64, originalId: Int64)? { heap.first }

    mutating func push(_ due: Int64, _ originalId: Int64) {
        heap.append((due, originalId))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (due: Int64, originalId: Int64)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, less(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, less(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }

    mutating func removeAll() { heap.removeAll() }

    /// Ties break on the original transaction ID so that equal due times fire in a stable order.
    private func less(_ a: (due: Int64, originalId: Int64), _ b: (due: Int64, originalId: Int64)) -> Bool {
        a.due != b.due ? a.due < b.due : a.originalId < b.originalId
    }
}
