// SPDX-License-Identifier: GPL-3.0-or-later

import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Independent per-frame work spread over a few threads. Items are claimed one at a time (a
/// frame's cost varies a lot), and every result lands in its item's slot, so the output never
/// depends on the thread count or on which thread ran what.
enum ParallelWork {
    /// The online core count (at least 1): the default worker count.
    static var processorCount: Int {
        #if canImport(Glibc)
            return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #elseif canImport(Darwin)
            return max(1, Int(sysconf(_SC_NPROCESSORS_ONLN)))
        #else
            return 1
        #endif
    }

    /// `body(i)` for every `i` in `0..<count`, in index order, computed on up to `workers`
    /// threads (the calling one among them).
    /// - Parameters:
    ///   - workers: ≥ 1; 1 runs everything on the calling thread.
    ///   - makeState: scratch each thread creates once and passes to every `body` call it makes
    ///     (an LZW dictionary, say); never shared between threads.
    /// - Throws: the error of the lowest index whose `body` threw.
    static func map<T: Sendable, State, E: Error>(
        count: Int, workers: Int, makeState: @Sendable () -> State,
        _ body: @Sendable (Int, inout State) throws(E) -> T
    ) throws(E) -> [T] {
        let threads = max(1, min(workers, count))
        if threads == 1 {
            var state = makeState()
            var results: [T] = []
            results.reserveCapacity(count)
            for i in 0..<count { results.append(try body(i, &state)) }
            return results
        }
        let slots = Slots<Result<T, E>>(count: count)
        forEachClaimed(count: count, threads: threads, makeState: makeState) { i, state in
            do throws(E) {
                slots.set(i, .success(try body(i, &state)))
            } catch {
                slots.set(i, .failure(error))
            }
        }
        var results: [T] = []
        results.reserveCapacity(count)
        for i in 0..<count { results.append(try slots.take(i).get()) }
        return results
    }

    /// `body(i)` for every `i` in `0..<count`, on up to `workers` threads; see
    /// `map(count:workers:makeState:_:)`.
    static func map<T: Sendable, E: Error>(
        count: Int, workers: Int, _ body: @Sendable (Int) throws(E) -> T
    ) throws(E) -> [T] {
        try map(count: count, workers: workers, makeState: {}) { (i, _: inout Void) throws(E) in try body(i) }
    }

    /// A producer and its consumers at once: `produce` runs on the calling thread and hands out
    /// items 0, 1, 2, … in order through its argument; `consume(i, item, &state)` runs for
    /// each on up to `workers − 1` other threads as soon as the item is out, and on the calling
    /// thread too once `produce` has returned. For a sequential pass whose output is worked on
    /// item by item (the frame plan's rectangle and disposal pass, then each frame's
    /// compression), the other threads no longer wait for the whole pass.
    /// - Parameters:
    ///   - count: how many items `produce` emits (at most this many are used).
    ///   - workers: ≥ 1; 1 produces everything, then consumes on the calling thread.
    ///   - makeState: scratch each consuming thread creates once, as for `map`.
    /// - Returns: the results of the items emitted, in index order.
    /// - Throws: the error of the lowest index whose `consume` threw, else `produce`'s error.
    static func pipeline<Item: Sendable, T: Sendable, State, E: Error>(
        count: Int, workers: Int, makeState: @Sendable () -> State,
        produce: (_ emit: (Item) -> Void) throws(E) -> Void,
        consume: @Sendable (Int, Item, inout State) throws(E) -> T
    ) throws(E) -> [T] {
        // The helpers' closures never outlive this call: it waits for them (`group.wait()`).
        try withoutActuallyEscaping(makeState) { makeState throws(E) in
            try withoutActuallyEscaping(consume) { consume throws(E) in
                try runPipeline(
                    count: count, workers: workers, makeState: makeState, produce: produce, consume: consume)
            }
        }
    }

    /// `pipeline`, with closures the helper threads may hold until it returns.
    private static func runPipeline<Item: Sendable, T: Sendable, State, E: Error>(
        count: Int, workers: Int, makeState: @escaping @Sendable () -> State,
        produce: (_ emit: (Item) -> Void) throws(E) -> Void,
        consume: @escaping @Sendable (Int, Item, inout State) throws(E) -> T
    ) throws(E) -> [T] {
        let helpers = max(0, min(workers, count) - 1)
        let items = Slots<Item>(count: count)
        let results = Slots<Result<T, E>>(count: count)
        // One signal per emitted item (a helper waits for one before each claim), plus one per
        // helper once production stops, so every helper's last claim finds nothing and ends.
        let ready = DispatchSemaphore(value: 0)
        let published = Atomic<Int>(0)
        let next = Atomic<Int>(0)
        /// Claims and consumes items until none is left to claim.
        @Sendable func work(_ state: inout State, waiting: Bool) {
            while true {
                if waiting { ready.wait() }
                // Claims synchronise with one another (not relaxed): a claim of i by this thread
                // may follow a wait that another thread's claim of i − 1 outran, and must still
                // see the `published` count that thread saw.
                let i = next.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue
                guard i < published.load(ordering: .acquiring) else { return }
                do throws(E) {
                    results.set(i, .success(try consume(i, items.take(i), &state)))
                } catch {
                    results.set(i, .failure(error))
                }
            }
        }
        let group = DispatchGroup()
        for _ in 0..<helpers {
            DispatchQueue.global().async(group: group) {
                var state = makeState()
                work(&state, waiting: true)
            }
        }
        var emitted = 0
        var failure: E?
        do throws(E) {
            try produce { item in
                guard emitted < count else { return }
                items.set(emitted, item)
                emitted += 1
                published.store(emitted, ordering: .releasing)
                ready.signal()
            }
        } catch {
            failure = error
        }
        for _ in 0..<helpers { ready.signal() }
        var state = makeState()
        work(&state, waiting: false)
        group.wait()
        var output: [T] = []
        output.reserveCapacity(emitted)
        for i in 0..<emitted { output.append(try results.take(i).get()) }
        if let failure { throw failure }
        return output
    }

    /// `body(i, &items[i], &state)` for every item, on up to `workers` threads, in place: each
    /// item is moved to the thread that updates it and back, so an array inside an item that
    /// nothing else holds is mutated without a copy (a frame's index buffer rewritten through
    /// a table, say).
    /// - Parameters:
    ///   - workers: ≥ 1; 1 runs everything on the calling thread.
    ///   - makeState: scratch each thread creates once, as for `map`.
    static func update<T: Sendable, State>(
        _ items: inout [T], workers: Int, makeState: @Sendable () -> State,
        _ body: @Sendable (Int, inout T, inout State) -> Void
    ) {
        let count = items.count
        let threads = max(1, min(workers, count))
        if threads == 1 {
            var state = makeState()
            for i in 0..<count { body(i, &items[i], &state) }
            return
        }
        let slots = Slots<T>(count: count)
        var i = count
        while let item = items.popLast() {
            i -= 1
            slots.set(i, item)
        }
        forEachClaimed(count: count, threads: threads, makeState: makeState) { i, state in
            var item = slots.take(i)
            body(i, &item, &state)
            slots.set(i, item)
        }
        items.reserveCapacity(count)
        for i in 0..<count { items.append(slots.take(i)) }
    }

    /// `body(i, &items[i])` for every item, on up to `workers` threads, in place; see
    /// `update(_:workers:makeState:_:)`.
    static func update<T: Sendable>(_ items: inout [T], workers: Int, _ body: @Sendable (Int, inout T) -> Void) {
        update(&items, workers: workers, makeState: {}) { (i, item, _: inout Void) in body(i, &item) }
    }

    /// `body(i, &state)` once for every `i` in `0..<count` on `threads` threads (the calling one
    /// among them), each claiming one index at a time and keeping its own `state`.
    private static func forEachClaimed<State>(
        count: Int, threads: Int, makeState: @Sendable () -> State, _ body: @Sendable (Int, inout State) -> Void
    ) {
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var state = makeState()
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                body(i, &state)
            }
        }
    }
}

/// One result slot per item. While threads run, each slot is touched by exactly one of them
/// (the one that claimed its index). The calling thread fills slots before the threads start
/// (or, in `pipeline`, before it publishes the item's index with a releasing store that the
/// claiming thread reads with an acquiring load) and reads them only after every thread has
/// finished. That is what makes the unchecked `Sendable` sound.
private final class Slots<T>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<T?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        _ = storage.deinitialize()
        storage.deallocate()
    }

    func set(_ i: Int, _ value: T) { storage[i] = value }

    func take(_ i: Int) -> T {
        guard let value = storage[i].take() else { preconditionFailure("slot \(i) was never filled") }
        return value
    }
}
