#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Work on a stream of chunks on several threads, with the results taken in the chunks' order:
/// one thread produces the chunks (reads them), `jobs` threads work on them, and the calling
/// thread takes each chunk's result in turn, in the order the chunks were produced, whichever
/// worker finished first. At most `inFlight` chunks are produced and not yet taken, so memory is
/// bounded by them (and their results) however long the stream is.
///
///     try OrderedPipeline.run(jobs: 4, inFlight: 8,
///                             produce: { reader.nextChunk() },          // one thread
///                             work: { chunk in matches(in: chunk) },    // four threads
///                             take: { chunk, matches in print(matches); return true })  // in order
///
/// `take` returns false to stop early (the rest is not produced, worked on nor taken); an
/// error it throws stops everything the same way and is rethrown. Either way, and at the end,
/// `run` returns only once the other threads have ended. Nothing here knows what a chunk is:
/// a producer that fails makes a chunk that says so, taken in its turn.
public enum OrderedPipeline {
    /// Runs the pipeline; see ``OrderedPipeline``.
    /// - Parameters:
    ///   - jobs: worker threads (at least 1).
    ///   - inFlight: chunks produced and not yet taken, at most (at least `jobs`).
    ///   - produce: the next chunk, nil at the end; called on one thread of its own, one call at a time.
    ///   - work: a chunk's result; called on the worker threads, on many chunks at once.
    ///   - take: called on the calling thread with each chunk and its result, in the order
    ///     they were produced; false stops.
    public static func run<Chunk, Output, Failure: Error>(
        jobs: Int, inFlight: Int,
        produce: @escaping @Sendable () -> Chunk?,
        work: @escaping @Sendable (Chunk) -> Output,
        take: (Chunk, Output) throws(Failure) -> Bool
    ) throws(Failure) {
        let state = PipelineState<Chunk, Output>(inFlight: max(inFlight, jobs, 1))
        var threads: [pthread_t] = []
        threads.append(startThread { state.produceAll(produce) })
        for _ in 0..<max(1, jobs) {
            threads.append(startThread { state.workAll(work) })
        }
        defer {
            state.stop()
            for thread in threads { pthread_join(thread, nil) }
        }
        while let (chunk, output) = state.nextInOrder() {
            if !(try take(chunk, output)) { return }
        }
    }

    /// The stack a pipeline thread gets: as large as the main thread's usual one (evaluation
    /// recurses as deep there as on the thread that compiled the predicate), or the soft limit
    /// of the process's stack if that is larger (bounded).
    static let threadStackSize: Int = {
        var size = 8 << 20
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_STACK.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            size = max(size, min(Int(clamping: limit.rlim_cur), 256 << 20))
        }
        return size
    }()

    /// A thread that runs `body` (joinable).
    private static func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
        final class Box: @unchecked Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, threadStackSize)
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        // Without a thread the process cannot go on (as when it cannot allocate).
        precondition(created == 0, "pthread_create failed: \(String(cString: strerror(created)))")
        return thread
    }
}

/// The pipeline's shared state: one lock and one condition for all of it (the threads wait
/// for one another once per chunk of megabytes, so one condition costs nothing that matters).
private final class PipelineState<Chunk, Output>: @unchecked Sendable {
    private let condition = NSCondition()
    private let inFlight: Int
    /// Chunks produced and not yet taken by a worker, by number (`nextToWork` is the next).
    private var queue: [Int: Chunk] = [:]
    private var nextToWork = 0
    /// Results not yet taken, by chunk number.
    private var done: [Int: (Chunk, Output)] = [:]
    /// Chunks produced so far (the next chunk's number).
    private var produced = 0
    /// Chunks taken by the calling thread so far (the next to take).
    private var taken = 0
    private var finishedProducing = false
    private var stopped = false

    init(inFlight: Int) { self.inFlight = inFlight }

    /// The producer's thread: chunks until the end, waiting while `inFlight` are out.
    func produceAll(_ produce: @Sendable () -> Chunk?) {
        while true {
            condition.lock()
            while produced - taken >= inFlight && !stopped { condition.wait() }
            let stop = stopped
            condition.unlock()
            if stop { return }
            let chunk = produce()
            condition.lock()
            if let chunk {
                queue[produced] = chunk
                produced += 1
            } else {
                finishedProducing = true
            }
            condition.broadcast()
            condition.unlock()
            if chunk == nil { return }
        }
    }

    /// A worker's thread: results of chunks until there are no more (or the pipeline stops).
    func workAll(_ work: @Sendable (Chunk) -> Output) {
        while true {
            condition.lock()
            while nextToWork == produced && !finishedProducing && !stopped { condition.wait() }
            if stopped || nextToWork == produced {
                condition.unlock()
                return
            }
            let number = nextToWork
            let chunk = queue.removeValue(forKey: number)!
            nextToWork += 1
            condition.unlock()
            let output = work(chunk)
            condition.lock()
            done[number] = (chunk, output)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The calling thread: the next chunk in order and its result, once ready; nil at the end.
    func nextInOrder() -> (Chunk, Output)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let next = done.removeValue(forKey: taken) {
                taken += 1
                condition.broadcast()
                return next
            }
            if finishedProducing && taken == produced { return nil }
            condition.wait()
        }
    }

    /// Stops producing and working (chunks not yet worked on are dropped).
    func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        done.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
