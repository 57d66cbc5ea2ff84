/// The scalars of "simple" text, whose extended grapheme clusters (Swift's Characters) a regular
/// expression over code points can count — read from Swift's own segmentation once per process.
///
/// Every scalar falls in one of four classes:
///
/// - a *base* (Grapheme_Cluster_Break = Other, not Extended_Pictographic): starts a cluster;
/// - an *extender* (Extend, ZWJ, SpacingMark, but no Indic conjunct linker such as the Devanagari
///   virama U+094D): joins the cluster before it;
/// - a *control* (Control, LF; not CR): a cluster of its own;
/// - anything else — CR (CR LF is one cluster), Prepend, Hangul jamo and syllables, regional
///   indicators, extended pictographs (emoji ZWJ sequences), the linkers (a consonant, a virama
///   and a consonant are one cluster under Unicode 15.1's rule GB9c, which Swift implements) — is
///   *other*.
///
/// Text is simple when it holds no *other* scalar and no extender at its start or right after a
/// control. Its clusters are then exactly `base extender*` and `control`: between two bases, a
/// base and a control or an extender and a base, Swift's rules leave only GB999 (a break), and
/// an extender always joins what is before it (GB9, GB9a). ``LikeRegex`` counts `?` so, and
/// makes the server refuse (so the fetch reruns in memory) any text that is not simple.
///
/// The tables are built once per process, a block of 256 scalars at a time where every scalar
/// of it passes the tests for a base together, scalar by scalar elsewhere.
struct SimpleClusters: Sendable {
    /// Ranges of extender scalars.
    let extenders: [ClosedRange<UInt32>]
    /// Ranges of control scalars.
    let controls: [ClosedRange<UInt32>]
    /// Ranges of scalars that are neither base, extender nor control.
    let others: [ClosedRange<UInt32>]

    /// The classes of this process's Swift.
    static let current = SimpleClusters()

    /// One scalar's class.
    enum Kind: Equatable { case base, extender, control, other }

    /// The class of `u` under Swift's segmentation (the tests the type's comment describes).
    static func kind(_ u: Unicode.Scalar) -> Kind {
        let s = String(u)
        if ("a" + s).count == 1 {
            // An Indic conjunct linker joins a consonant after it: not simple.
            return ("\u{915}" + s + "\u{915}").count == 1 ? .other : .extender
        }
        if (s + "\u{301}").count == 2 {
            return u != "\r" && (s + "a").count == 2 ? .control : .other
        }
        let joinsNothing = (s + "a").count == 2 && ("\u{1100}" + s).count == 2 && (s + "\u{11A8}").count == 2
            && (s + s).count == 2 && ("\u{1F600}\u{200D}" + s).count == 2
        return joinsNothing ? .base : .other
    }

    private init() {
        var extenders: [ClosedRange<UInt32>] = [], controls: [ClosedRange<UInt32>] = [], others: [ClosedRange<UInt32>] = []
        func classify(_ u: Unicode.Scalar) {
            func add(_ ranges: inout [ClosedRange<UInt32>]) {
                if let last = ranges.last, last.upperBound + 1 == u.value {
                    ranges[ranges.count - 1] = last.lowerBound...u.value
                } else {
                    ranges.append(u.value...u.value)
                }
            }
            switch Self.kind(u) {
            case .base: break
            case .extender: add(&extenders)
            case .control: add(&controls)
            case .other: add(&others)
            }
        }
        // Blocks of 256 scalars: one whose every scalar passes the base tests at once (each
        // test's strings joined into one, which segments into as many Characters as can be only
        // if every boundary in it breaks) holds bases only; the others go scalar by scalar.
        for start in stride(from: UInt32(0), through: 0x10FF00, by: 256) {
            let block = (start...(start + 255)).compactMap(Unicode.Scalar.init)
            if Self.allBases(block) { continue }
            for u in block { classify(u) }
        }
        (self.extenders, self.controls, self.others) = (extenders, controls, others)
    }

    /// Whether every scalar of `block` is a base by ``kind(_:)``'s tests, each test run on the
    /// whole block in one string (five strings segmented, not five per scalar).
    private static func allBases(_ block: [Unicode.Scalar]) -> Bool {
        // Each test: the string for one scalar, and its Characters when every boundary breaks.
        let tests: [((String) -> String, Int)] = [
            ({ "a" + $0 + "a" }, 3),                // not an extender, a prepend, a control
            ({ $0 + "\u{301}" }, 1),                // not a control (a base takes the mark)
            ({ "\u{1100}" + $0 + "\u{11A8}" }, 3),   // not a Hangul jamo or syllable
            ({ "\u{1F600}\u{200D}" + $0 }, 2),        // not a pictograph after ZWJ
            ({ "a" + $0 + $0 }, 3),                  // not a regional indicator (pairs with itself)
        ]
        for (test, per) in tests {
            var text = ""
            for u in block { text += test(String(u)) }
            if text.count != per * block.count { return false }
        }
        return true
    }

    /// The class of `u` in these tables.
    func kind(of u: Unicode.Scalar) -> Kind {
        func holds(_ ranges: [ClosedRange<UInt32>]) -> Bool {
            var low = 0, high = ranges.count
            while low < high {
                let middle = (low + high) / 2
                if ranges[middle].upperBound < u.value { low = middle + 1 } else { high = middle }
            }
            return low < ranges.count && ranges[low].contains(u.value)
        }
        if holds(extenders) { return .extender }
        if holds(controls) { return .control }
        if holds(others) { return .other }
        return .base
    }

    /// Whether `text` is simple (the type's comment).
    func isSimple(_ text: String) -> Bool {
        var previous: Kind = .control
        for u in text.unicodeScalars {
            let kind = kind(of: u)
            if kind == .other || (kind == .extender && previous == .control) { return false }
            previous = kind
        }
        return true
    }

    /// Whether `character` (one cluster) is of a simple text's shape: a base and extenders, or
    /// one control.
    func isSimple(_ character: Character) -> Bool {
        let scalars = Array(character.unicodeScalars)
        guard let first = scalars.first else { return false }
        switch kind(of: first) {
        case .base: return scalars.dropFirst().allSatisfy { kind(of: $0) == .extender }
        case .control: return scalars.count == 1
        default: return false
        }
    }

    /// ARE brackets of the classes.
    var extenderBracket: String { "[" + Self.members(extenders) + "]" }
    var controlBracket: String { "[" + Self.members(controls) + "]" }
    var otherBracket: String { "[" + Self.members(others) + "]" }
    /// A base in simple text: neither an extender nor a control.
    var baseBracket: String { "[^" + Self.members(extenders) + Self.members(controls) + "]" }

    /// The ranges as the inside of an ARE bracket, each bound a `\u` escape.
    private static func members(_ ranges: [ClosedRange<UInt32>]) -> String {
        ranges.map { range in
            range.lowerBound == range.upperBound ? SQLRegexPattern.escape(range.lowerBound)
                : SQLRegexPattern.escape(range.lowerBound) + "-" + SQLRegexPattern.escape(range.upperBound)
        }.joined()
    }
}
