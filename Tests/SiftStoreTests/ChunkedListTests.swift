import SiftLanguage
import Testing
@testable import SiftStore

/// ``ChunkedList`` against an array: random inserts, removes and sets across chunk splits and
/// merges, copies left as they were, and the shared-prefix and suffix counts.
@Suite struct ChunkedListTests {
    /// Checks the list's elements and its chunks' bookkeeping against `expected`.
    static func check(_ list: ChunkedList<Int>, _ expected: [Int], _ step: String) {
        #expect(Array(list) == expected, "\(step)")
        #expect(list.count == expected.count, "\(step)")
        var end = 0
        for (c, chunk) in list.chunks.enumerated() {
            end += chunk.count
            #expect(list.ends[c] == end, "\(step): chunk \(c) ends at \(list.ends[c]), not \(end)")
            #expect(!chunk.isEmpty && chunk.count <= ChunkedList<Int>.splitCount, "\(step): chunk \(c) holds \(chunk.count)")
        }
    }

    static func naivePrefix(_ a: [Int], _ b: [Int]) -> Int {
        zip(a, b).prefix { $0 == $1 }.count
    }

    static func naiveSuffix(_ a: [Int], _ b: [Int], limit: Int) -> Int {
        min(limit, zip(a.reversed(), b.reversed()).prefix { $0 == $1 }.count)
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func randomEditsMatchAnArray(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let start = Int.random(in: 0...3_000, using: &random)
        var expected = Array(0..<start)
        var list = ChunkedList(expected)
        Self.check(list, expected, "start \(start)")
        var next = start
        // Half the inserts at one place, so its chunk fills and splits.
        let hot = Int.random(in: 0...start, using: &random)
        var uneven = false
        for step in 0..<1_500 {
            let copy = list, copied = expected
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let at = Bool.random(using: &random) ? min(hot, expected.count) : Int.random(in: 0...expected.count, using: &random)
                // Runs of inserts at one place, so chunks split.
                for _ in 0..<Int.random(in: 1...40, using: &random) {
                    expected.insert(next, at: at)
                    list.insert(next, at: at)
                    next += 1
                }
            case 5..<8 where !expected.isEmpty:
                let at = Int.random(in: 0..<expected.count, using: &random)
                // Runs of removes at one place, so chunks empty and merge.
                for _ in 0..<Int.random(in: 1...60, using: &random) where at < expected.count {
                    #expect(list.remove(at: at) == expected.remove(at: at), "step \(step)")
                }
            case 8 where !expected.isEmpty:
                let at = Int.random(in: 0..<expected.count, using: &random)
                expected[at] = -step
                list[at] = -step
            default:
                list.append(next)
                expected.append(next)
                next += 1
            }
            Self.check(list, expected, "step \(step)")
            uneven = uneven || list.chunks.count > (list.count + ChunkedList<Int>.chunkCount - 1) / ChunkedList<Int>.chunkCount
            // The copy taken before the step is as it was (its chunks are shared, not changed).
            #expect(Array(copy) == copied, "step \(step): the copy changed")
            let prefix = list.commonPrefixCount(with: copy)
            #expect(prefix == Self.naivePrefix(expected, copied), "step \(step): prefix \(prefix)")
            let limit = min(expected.count, copied.count) - prefix
            #expect(list.commonSuffixCount(with: copy, limit: limit) == Self.naiveSuffix(expected, copied, limit: limit), "step \(step): suffix")
            #expect((list == copy) == (expected == copied), "step \(step): ==")
            if step % 500 == 0, !expected.isEmpty {
                let i = Int.random(in: 0..<expected.count, using: &random)
                #expect(list[i] == expected[i], "step \(step): [\(i)]")
                let range = i..<min(expected.count, i + 700)
                var seen: [Int] = []
                list.forEach(in: range) { index, element in
                    #expect(index == range.lowerBound + seen.count)
                    seen.append(element)
                }
                #expect(seen == Array(expected[range]), "step \(step): forEach(in: \(range))")
            }
        }
        #expect(uneven, "the chunks were never other than full")
    }

    /// Lists of equal elements chunked differently are equal and hash alike.
    @Test func equalityIgnoresChunking() {
        let whole = ChunkedList(0..<2_000)
        var edited = ChunkedList(0..<2_000)
        edited.insert(-1, at: 700)
        #expect(edited != whole)
        edited.remove(at: 700)
        #expect(edited == whole)
        #expect(edited.hashValue == whole.hashValue)
        #expect(ChunkedList<Int>() == ChunkedList([]))
        #expect(ChunkedList([1, 2]) != ChunkedList([1, 2, 3]))
    }

    /// A snapshot taken from a section keeps its IDs while the section changes.
    @Test func snapshotsKeepTheirSections() {
        var snapshot = ResultsSnapshot(sections: [.init(name: "a", objectIDs: (0..<1_500).map { ObjectID("o\($0)") })])
        let kept = snapshot
        snapshot.sections[0].ids.remove(at: 3)
        snapshot.sections[0].ids.insert("x", at: 1_200)
        #expect(kept.sections[0].objectIDs == (0..<1_500).map { ObjectID("o\($0)") })
        #expect(snapshot.objectID(at: ResultIndexPath(section: 0, row: 3)) == "o4")
        #expect(snapshot.objectID(at: ResultIndexPath(section: 0, row: 1_200)) == "x")
        #expect(snapshot.objectID(at: ResultIndexPath(section: 0, row: 1_500)) == nil)
        #expect(snapshot.objectID(at: ResultIndexPath(section: 0, row: -1)) == nil)
        #expect(snapshot.sections[0].count == 1_500)
    }
}
