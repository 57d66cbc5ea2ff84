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
/// Planes 0, 1 and 14 are classified scalar by scalar. The rest (CJK ideographs, unassigned
/// planes, private use) hold no Hangul, regional indicator or pictograph by Unicode's stable
/// ranges; each of their scalars is still checked to begin and end a cluster as a base does, and
/// counts as *other* otherwise.
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
        // Blocks of 256 scalars; past planes 0 and 1 (and but for plane 14's tags and selectors),
        // a block whose every scalar breaks from an "a" on both sides and takes a mark after it
        // holds bases only, by Unicode's stable ranges (see the type's comment).
        for start in stride(from: UInt32(0), through: 0x10FF00, by: 256) {
            let block = (start...(start + 255)).compactMap(Unicode.Scalar.init)
            let plane = start >> 16
            if plane > 1 && plane != 14 && Self.allBases(block) { continue }
            for u in block { classify(u) }
        }
        (self.extenders, self.controls, self.others) = (extenders, controls, others)
    }

    /// Whether each scalar of `block` breaks from "a" on both sides and joins a following mark
    /// (two strings segmented, not one per scalar).
    private static func allBases(_ block: [Unicode.Scalar]) -> Bool {
        var between = "a", marked = ""
        for u in block {
            between.unicodeScalars.append(u)
            between += "a"
            marked.unicodeScalars.append(u)
            marked += "\u{301}"
        }
        return between.count == 2 * block.count + 1 && marked.count == block.count
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
            range.lowerBound == range.upperBound ? PostgreSQLRegex.escape(range.lowerBound)
                : PostgreSQLRegex.escape(range.lowerBound) + "-" + PostgreSQLRegex.escape(range.upperBound)
        }.joined()
    }
}
