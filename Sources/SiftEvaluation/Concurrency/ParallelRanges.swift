/// Work over the positions `0..<count` on several threads, in consecutive ranges, with each
/// range's result taken in order on the calling thread: how a fetch in memory evaluates a
/// predicate over a large store's objects on every core (the results and the first error are
/// those of one loop from 0 to `count`).
///
///     try ParallelRanges.run(count: objects.count, jobs: 4, work: { range in matches(in: range) },
///                            take: { matches in all.append(contentsOf: matches); return true })
///
/// Each worker runs with the calling thread's evaluation scopes (``EvaluationBudget/Scopes``:
/// the SUBQUERY budget, the interrupt check, the memory limit). The threads are those of an
/// ``OrderedPipeline`` (as large a stack as the main thread's), made for the call.
package enum ParallelRanges {
    /// The ranges `0..<count` is cut into for `jobs` threads: about eight a thread (so that a
    /// thread given slow ones is not waited for long), none shorter than `minimumLength`.
    package static func ranges(count: Int, jobs: Int, minimumLength: Int) -> [Range<Int>] {
        guard count > 0 else { return [] }
        let perThread = 8
        let pieces = max(1, jobs) * perThread
        let length = max(1, minimumLength, (count + pieces - 1) / pieces)
        return stride(from: 0, to: count, by: length).map { $0..<min($0 + length, count) }
    }

    /// Calls `work` on the ranges of `0..<count` (``ranges(count:jobs:minimumLength:)``) on
    /// `jobs` threads, and `take` with their results in the ranges' order on this thread,
    /// until it returns false (the ranges after are not worked on) or throws. One job, or one
    /// range, runs on this thread alone.
    package static func run<Output: Sendable, Failure: Error>(
        count: Int, jobs: Int, minimumLength: Int = 1024,
        work: @escaping @Sendable (Range<Int>) -> Output,
        take: (Output) throws(Failure) -> Bool
    ) throws(Failure) {
        let ranges = ranges(count: count, jobs: jobs, minimumLength: minimumLength)
        if jobs <= 1 || ranges.count <= 1 {
            for range in ranges {
                if !(try take(work(range))) { return }
            }
            return
        }
        let scopes = EvaluationBudget.Scopes.current
        let next = Locked(0)
        let threads = min(jobs, ranges.count)
        try OrderedPipeline.run(
            jobs: threads, inFlight: 2 * threads,
            produce: {
                next.withLock { (index: inout Int) -> Range<Int>? in
                    guard index < ranges.count else { return nil }
                    defer { index += 1 }
                    return ranges[index]
                }
            },
            work: { range in scopes.apply { work(range) } },
            take: { (_, output) throws(Failure) -> Bool in try take(output) })
    }
}
