import Testing
@testable import SiftEvaluation

/// ``ParallelRanges``: positions cut into consecutive ranges, worked on on several threads,
/// the results taken in order.
@Suite("parallel ranges")
struct ParallelRangesTests {
    @Test("the ranges cover every position once, in order", arguments: [
        (0, 4, 10), (1, 4, 10), (9, 1, 10), (10, 1, 10), (11, 1, 10), (100_000, 4, 1024), (100_000, 64, 1), (5, 3, 1),
    ] as [(Int, Int, Int)])
    func ranges(_ count: Int, _ jobs: Int, _ minimumLength: Int) {
        let ranges = ParallelRanges.ranges(count: count, jobs: jobs, minimumLength: minimumLength)
        #expect(ranges.flatMap { Array($0) } == Array(0..<count))
        #expect(ranges.allSatisfy { !$0.isEmpty })
        // None shorter than the minimum but the last; about eight a thread.
        #expect(ranges.dropLast().allSatisfy { $0.count >= minimumLength })
        #expect(ranges.count <= max(1, 8 * jobs))
    }

    @Test("the results are taken in the ranges' order", arguments: [1, 2, 5])
    func order(_ jobs: Int) {
        var taken: [Int] = []
        ParallelRanges.run(count: 50_000, jobs: jobs, minimumLength: 100, work: { range -> [Int] in
            // Uneven work, so later ranges often finish first.
            var x = range.lowerBound
            for _ in 0..<((range.lowerBound / 100 * 7_919) % 13) * 2_000 { x = (x &* 31) &+ 7 }
            return range.map { $0 * 2 + (x == .min ? 1 : 0) }
        }, take: { (part: [Int]) -> Bool in
            taken.append(contentsOf: part)
            return true
        })
        #expect(taken == (0..<50_000).map { $0 * 2 })
    }

    @Test("take stops the ranges after, and its error is rethrown")
    func stopping() {
        struct Stop: Error {}
        var takes = 0
        ParallelRanges.run(count: 10_000, jobs: 3, minimumLength: 10, work: { $0.count }, take: { (_: Int) -> Bool in
            takes += 1
            return takes < 4
        })
        #expect(takes == 4)
        #expect(throws: Stop.self) {
            try ParallelRanges.run(count: 10_000, jobs: 3, minimumLength: 10, work: { $0.count }, take: { (_: Int) throws(Stop) -> Bool in
                throw Stop()
            })
        }
    }

    @Test("the workers evaluate under the calling thread's budget")
    func scopes() {
        let limits = Locked<Set<Int>>([])
        EvaluationBudget.subqueryTestLimitScope.withValue(123) {
            ParallelRanges.run(count: 1_000, jobs: 3, minimumLength: 10, work: { _ in
                limits.withLock { _ = $0.insert(EvaluationBudget.subqueryTestLimit) }
            }, take: { (_: Void) -> Bool in true })
        }
        #expect(limits.withLock { $0 } == [123])
        #expect(EvaluationBudget.subqueryTestLimit == EvaluationBudget.subqueryTests)
    }
}
