/// A list kept in chunks of a few hundred elements (each an array of its own), with each
/// chunk's end index: an element is found by a binary search over the chunks, and an insert or
/// a remove changes one chunk (split past ``splitCount``, merged with a neighbour below
/// ``mergeCount``) and the chunks' end indexes.
///
/// Copies share their chunks (each chunk's buffer is copied on write): a change to a copy
/// copies the one chunk it changes and the list of chunks (one reference per chunk), not the
/// elements. So a live result's snapshot handed to a caller stays as it was while the
/// controller changes its own copy, at the cost of one chunk per change.
struct ChunkedList<Element> {
    /// The size of the chunks a list is cut into.
    static var chunkCount: Int { 512 }
    /// A chunk longer than this is split in two.
    static var splitCount: Int { 1_024 }
    /// A chunk shorter than this is merged with a neighbour where the two fit in one.
    static var mergeCount: Int { 128 }

    private(set) var chunks: [[Element]]
    /// The index after each chunk's last element.
    private(set) var ends: [Int]

    init() {
        chunks = []
        ends = []
    }

    init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        append(contentsOf: elements)
    }

    var count: Int { ends.last ?? 0 }
    var isEmpty: Bool { ends.isEmpty }

    /// The chunk holding index `i` (0 ≤ i < count) and the index in it.
    @inline(__always)
    func locate(_ i: Int) -> (chunk: Int, offset: Int) {
        var low = 0, high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > i { high = middle } else { low = middle + 1 }
        }
        return (low, i - (low == 0 ? 0 : ends[low - 1]))
    }

    /// The index of chunk `c`'s first element.
    func start(ofChunk c: Int) -> Int { c == 0 ? 0 : ends[c - 1] }

    subscript(i: Int) -> Element {
        get {
            precondition(i >= 0 && i < count, "index \(i) out of a list of \(count)")
            let (c, o) = locate(i)
            return chunks[c][o]
        }
        set {
            precondition(i >= 0 && i < count, "index \(i) out of a list of \(count)")
            let (c, o) = locate(i)
            chunks[c][o] = newValue
        }
    }

    mutating func append(_ element: Element) {
        if let last = chunks.indices.last, chunks[last].count < Self.chunkCount {
            chunks[last].append(element)
            ends[last] += 1
        } else {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkCount)
            chunk.append(element)
            chunks.append(chunk)
            ends.append(count + 1)
        }
    }

    mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }

    mutating func insert(_ element: Element, at i: Int) {
        precondition(i >= 0 && i <= count, "insertion at \(i) out of a list of \(count)")
        if i == count { return append(element) }
        let (c, o) = locate(i)
        chunks[c].insert(element, at: o)
        for k in c..<ends.count { ends[k] += 1 }
        if chunks[c].count > Self.splitCount {
            let half = chunks[c].count / 2
            chunks.insert(Array(chunks[c][half...]), at: c + 1)
            chunks[c].removeSubrange(half...)
            ends.insert(ends[c], at: c + 1)
            ends[c] -= chunks[c + 1].count
        }
    }

    @discardableResult
    mutating func remove(at i: Int) -> Element {
        precondition(i >= 0 && i < count, "index \(i) out of a list of \(count)")
        let (c, o) = locate(i)
        let element = chunks[c].remove(at: o)
        for k in c..<ends.count { ends[k] -= 1 }
        if chunks[c].isEmpty {
            chunks.remove(at: c)
            ends.remove(at: c)
        } else if chunks[c].count < Self.mergeCount, chunks.count > 1 {
            // Merged with the smaller neighbour, where the two fit in one chunk.
            let before = c > 0 ? chunks[c - 1].count : Int.max
            let after = c + 1 < chunks.count ? chunks[c + 1].count : Int.max
            let neighbour = before <= after ? c - 1 : c + 1
            if Swift.min(before, after) + chunks[c].count <= Self.chunkCount {
                let first = Swift.min(c, neighbour)
                chunks[first].append(contentsOf: chunks[first + 1])
                ends[first] = ends[first + 1]
                chunks.remove(at: first + 1)
                ends.remove(at: first + 1)
            }
        }
        return element
    }

    /// Whether chunk `c` of this list and chunk `d` of `other` are one buffer (so hold the
    /// same elements without comparing them).
    func sharesChunk(_ c: Int, with other: ChunkedList, _ d: Int) -> Bool {
        guard chunks[c].count == other.chunks[d].count else { return false }
        return chunks[c].withUnsafeBufferPointer { a in
            other.chunks[d].withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
    }
}

extension ChunkedList: RandomAccessCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// Walks the chunks, not a binary search per element.
    struct Iterator: IteratorProtocol {
        let chunks: [[Element]]
        var chunk = 0, offset = 0

        mutating func next() -> Element? {
            while chunk < chunks.count {
                if offset < chunks[chunk].count {
                    defer { offset += 1 }
                    return chunks[chunk][offset]
                }
                chunk += 1
                offset = 0
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(chunks: chunks) }

    /// Calls `body` with each element of `range` and its index, chunk by chunk.
    func forEach(in range: Range<Int>, _ body: (Int, Element) throws -> Void) rethrows {
        guard !range.isEmpty else { return }
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range \(range) out of a list of \(count)")
        var (c, o) = locate(range.lowerBound)
        var index = range.lowerBound
        while index < range.upperBound {
            let chunk = chunks[c]
            while o < chunk.count, index < range.upperBound {
                try body(index, chunk[o])
                o += 1
                index += 1
            }
            c += 1
            o = 0
        }
    }

    /// Calls `body` with each element and its index, chunk by chunk.
    func forEachIndexed(_ body: (Int, Element) throws -> Void) rethrows {
        var index = 0
        for chunk in chunks {
            for element in chunk {
                try body(index, element)
                index += 1
            }
        }
    }
}

extension ChunkedList: Sendable where Element: Sendable {}

extension ChunkedList: Equatable where Element: Equatable {
    /// Equal elements in order, however they are chunked.
    static func == (a: ChunkedList, b: ChunkedList) -> Bool {
        a.count == b.count && a.commonPrefixCount(with: b) == a.count
    }

    /// How many elements from the start are equal in both lists: chunks shared by both are
    /// skipped whole (after a change, only the chunks it touched are compared).
    func commonPrefixCount(with other: ChunkedList) -> Int {
        var c = 0, d = 0, matched = 0
        while c < chunks.count, d < other.chunks.count, sharesChunk(c, with: other, d) {
            matched += chunks[c].count
            c += 1
            d += 1
        }
        // Element by element from there (both are at a chunk's start).
        var o = 0, p = 0
        while c < chunks.count, d < other.chunks.count {
            if o == chunks[c].count { c += 1; o = 0; continue }
            if p == other.chunks[d].count { d += 1; p = 0; continue }
            if o == 0, p == 0, sharesChunk(c, with: other, d) {
                matched += chunks[c].count
                c += 1
                d += 1
                continue
            }
            guard chunks[c][o] == other.chunks[d][p] else { break }
            matched += 1
            o += 1
            p += 1
        }
        return matched
    }

    /// How many elements from the end are equal in both lists (at most `limit`): shared
    /// chunks are skipped whole.
    func commonSuffixCount(with other: ChunkedList, limit: Int) -> Int {
        var c = chunks.count - 1, d = other.chunks.count - 1, matched = 0
        while c >= 0, d >= 0, matched + chunks[c].count <= limit, sharesChunk(c, with: other, d) {
            matched += chunks[c].count
            c -= 1
            d -= 1
        }
        // Element by element from there (both are at a chunk's end).
        var o = c >= 0 ? chunks[c].count - 1 : -1, p = d >= 0 ? other.chunks[d].count - 1 : -1
        while c >= 0, d >= 0, matched < limit {
            if o < 0 { c -= 1; if c >= 0 { o = chunks[c].count - 1 }; continue }
            if p < 0 { d -= 1; if d >= 0 { p = other.chunks[d].count - 1 }; continue }
            if o == chunks[c].count - 1, p == other.chunks[d].count - 1, matched + chunks[c].count <= limit,
               sharesChunk(c, with: other, d) {
                matched += chunks[c].count
                c -= 1
                d -= 1
                o = c >= 0 ? chunks[c].count - 1 : -1
                p = d >= 0 ? other.chunks[d].count - 1 : -1
                continue
            }
            guard chunks[c][o] == other.chunks[d][p] else { break }
            matched += 1
            o -= 1
            p -= 1
        }
        return matched
    }
}

extension ChunkedList: Hashable where Element: Hashable {
    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}
