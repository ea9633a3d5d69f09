// SPDX-License-Identifier: GPL-3.0-or-later

import Dispatch
import Export
import Foundation

/// Runs independent jobs on a fixed number of threads and hands their results over in job order,
/// so messages read the same whatever `--jobs` is.
enum JobRunner {
    /// Runs `body(i)` for every `i` in `0..<count` on up to `threads` threads.
    /// - Parameters:
    ///   - deliver: called with each result in index order, one call at a time, as soon as the
    ///     result and all earlier ones are ready.
    /// - Returns: every result, in index order.
    static func run<T: Sendable>(
        count: Int, threads: Int, body: @Sendable (Int) -> T, deliver: @escaping @Sendable (T) -> Void
    ) -> [T] {
        let slots = OrderedSlots<T>(count: count, deliver: deliver)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
            while let i = slots.claim() { slots.fill(i, body(i)) }
        }
        return slots.results
    }

    /// Threads each job may use for its frames when `threads` are shared by `count` jobs.
    static func frameWorkers(threads: Int, jobs count: Int) -> Int {
        max(1, threads / max(1, min(threads, count)))
    }
}

/// Results filled from several threads and delivered in order.
private final class OrderedSlots<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [T?]
    private var nextClaim = 0
    private var nextDelivery = 0
    private let deliver: @Sendable (T) -> Void

    init(count: Int, deliver: @escaping @Sendable (T) -> Void) {
        slots = Array(repeating: nil, count: count)
        self.deliver = deliver
    }

    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextClaim < slots.count else { return nil }
        nextClaim += 1
        return nextClaim - 1
    }

    func fill(_ index: Int, _ value: T) {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = value
        while nextDelivery < slots.count, let ready = slots[nextDelivery] {
            deliver(ready)
            nextDelivery += 1
        }
    }

    var results: [T] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
