import SiftLanguage

/// A compiled `LIKE` pattern (LANGUAGE.md §4): a whole-string match where `*` is any run of
/// characters (possibly empty), `?` exactly one character (an extended grapheme cluster), and
/// `\*`, `\?`, `\\` match `*`, `?`, `\` literally. Nothing else is special: a backslash before any
/// other character (or at the end) is a literal backslash.
///
/// Options fold both the pattern and the subject with `StringFolding` (`[c]`, `[d]`; `[n]` takes
/// both as they are; with no option both are NFC). `?` matches one character of the *folded*
/// subject: `"ß" LIKE[c] "??"` is true, as `[c]` folds "ß" to "ss". Characters compare by their
/// Unicode scalars (both sides are NFC, so that is canonical equivalence).
///
/// The pattern is compiled once into the runs between stars ("segments"). Matching anchors the
/// first segment at the start and the last at the end, and finds each middle segment at its
/// leftmost place after the previous one — correct for `*`/`?` patterns and never exponential
/// (at most subject length × pattern length steps, `*a*a*a*a*b` included). ASCII subjects
/// (after folding) are matched on bytes; others on an array of Characters.
public struct LikePattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written (escapes included).
    public let pattern: String
    public let options: ComparisonOptions
    /// The compiled form, shared by copies (one reference to retain, not one per segment).
    let program: Program

    /// One element of a segment: `?` or a literal character.
    enum Element: Sendable, Hashable {
        case any
        case literal(Character)
    }

    /// The compiled pattern: the segments between stars, stored flat. One segment means no star; a
    /// leading or trailing star leaves an empty first or last segment; consecutive stars are one.
    final class Program: Sendable {
        let preparation: Preparation
        /// Segment `i` is `elements[bounds[i] ..< bounds[i + 1]]`.
        let bounds: [Int]
        let elements: [Element]
        /// The same elements as bytes (`-1` for `?`) when every literal is one ASCII byte (not CR,
        /// since "\r\n" is one Character); nil otherwise.
        let asciiElements: [Int16]?

        init(preparation: Preparation, bounds: [Int], elements: [Element]) {
            self.preparation = preparation
            self.bounds = bounds
            self.elements = elements
            var ascii: [Int16]? = []
            for element in elements {
                switch element {
                case .any:
                    ascii!.append(-1)
                case let .literal(ch):
                    guard let v = ch.asciiValue, ch.unicodeScalars.count == 1, v != 0x0D else { ascii = nil; break }
                    ascii!.append(Int16(v))
                }
                if ascii == nil { break }
            }
            asciiElements = ascii
        }

        var segments: [[Element]] { (0..<(bounds.count - 1)).map { Array(elements[bounds[$0]..<bounds[$0 + 1]]) } }
    }

    public init(_ pattern: String, options: ComparisonOptions) {
        self.pattern = pattern
        self.options = options
        let preparation = Preparation(options)

        var bounds = [0]
        var elements: [Element] = []
        var run = String.UnicodeScalarView()
        func flush() {
            guard !run.isEmpty else { return }
            for ch in preparation.apply(String(run)) { elements.append(.literal(ch)) }
            run = String.UnicodeScalarView()
        }
        var scalars = pattern.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let u = pending {
            pending = scalars.next()
            switch u {
            case "*":
                flush()
                // Consecutive stars are one: no empty middle segment.
                if !(bounds.count > 1 && bounds[bounds.count - 1] == elements.count) { bounds.append(elements.count) }
            case "?":
                flush()
                elements.append(.any)
            case "\\":
                if let next = pending, next == "*" || next == "?" || next == "\\" {
                    run.append(next)
                    pending = scalars.next()
                } else {
                    run.append(u)
                }
            default:
                run.append(u)
            }
        }
        flush()
        bounds.append(elements.count)
        program = Program(preparation: preparation, bounds: bounds, elements: elements)
    }

    public static func == (a: LikePattern, b: LikePattern) -> Bool {
        a.options == b.options && a.pattern.utf8.elementsEqual(b.pattern.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(options)
        hasher.combine(pattern)
    }

    public var description: String { "LIKE\(options) \"\(pattern)\"" }

    /// The literal text of each run between stars, prepared as the subject is, when the
    /// pattern has no `?` (nil otherwise): one run means no star, an empty first or last run a
    /// leading or trailing star. (What the SQL compiler translates for a server.)
    package var literalRuns: [String]? {
        var runs: [String] = []
        for segment in program.segments {
            var text = ""
            for element in segment {
                guard case .literal(let character) = element else { return nil }
                text.append(character)
            }
            runs.append(text)
        }
        return runs
    }

    /// The elements of each run between stars, prepared as the subject is: a literal Character,
    /// or nil for `?` (one Character of the subject). One run means no star, an empty first or
    /// last run a leading or trailing star. (What the SQL compiler translates for a server.)
    package var segmentElements: [[Character?]] {
        program.segments.map { segment in
            segment.map { element in
                if case .literal(let character) = element { character } else { nil }
            }
        }
    }

    /// Whether the whole of `subject` matches the pattern.
    public func matches(_ subject: String) -> Bool {
        let program = self.program
        return program.preparation.withUTF8(subject) { bytes in
            program.bounds.withUnsafeBufferPointer { bounds in
                if let ascii = program.asciiElements, UTF8Bytes.maxByte(bytes) < 0x80, !bytes.contains(0x0D) {
                    return ascii.withUnsafeBufferPointer { elements in
                        Self.match(bytes, elements, bounds) { p, b in p < 0 || p == Int16(b) }
                    }
                }
                let characters = Array(String(decoding: bytes, as: UTF8.self))
                return program.elements.withUnsafeBufferPointer { elements in
                    Self.match(characters, elements, bounds) { p, ch in
                        switch p {
                        case .any: return true
                        case let .literal(l): return l.utf8.elementsEqual(ch.utf8)
                        }
                    }
                }
            }
        }
    }

    /// The segment algorithm over any random-access subject: the first segment anchored at the
    /// start, the last at the end, each middle one at its leftmost place after the previous one.
    @inline(__always)
    static func match<Subject: RandomAccessCollection, P>(
        _ subject: Subject, _ elements: UnsafeBufferPointer<P>, _ bounds: UnsafeBufferPointer<Int>,
        _ equal: (P, Subject.Element) -> Bool
    ) -> Bool where Subject.Index == Int {
        let n = subject.count
        let base = subject.startIndex
        @inline(__always) func matchesAt(_ start: Int, _ from: Int, _ to: Int) -> Bool {
            var i = base + start
            for k in from..<to {
                if !equal(elements[k], subject[i]) { return false }
                i += 1
            }
            return true
        }
        let segmentCount = bounds.count - 1
        let firstLength = bounds[1]
        if segmentCount == 1 { return n == firstLength && matchesAt(0, 0, firstLength) }
        let lastFrom = bounds[segmentCount - 1], lastLength = elements.count - lastFrom
        guard n >= firstLength + lastLength, matchesAt(0, 0, firstLength),
              matchesAt(n - lastLength, lastFrom, elements.count) else { return false }
        var position = firstLength
        let end = n - lastLength
        for index in 1..<(segmentCount - 1) {
            let from = bounds[index], to = bounds[index + 1]
            let length = to - from
            var start = position
            while start + length <= end && !matchesAt(start, from, to) { start += 1 }
            if start + length > end { return false }
            position = start + length
        }
        return true
    }
}
