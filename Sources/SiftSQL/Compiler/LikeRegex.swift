import SiftEvaluation

/// A `LIKE` pattern of plain literals (printable ASCII, and scalars segmented as it is:
/// ``isPlain(_:)``) and stars (no `?`), as a POSIX regular expression
/// over code points that matches exactly the texts the evaluator's `LikePattern` matches, for a
/// server without Sift's functions (PostgreSQL's `~`).
///
/// The evaluator matches Characters (extended grapheme clusters), so a literal run must begin
/// and end on a cluster boundary of the text: `"x*"` does not match `"x\u{301}"`, whose first
/// Character is `x́`. Before a printable ASCII character a boundary is missing only after a
/// Prepend scalar, and after one only before a scalar that extends the cluster (Extend, ZWJ,
/// SpacingMark): the runs are written `(?<![prepend])run(?![extend])`, the classes read from
/// Swift's own segmentation once per process (``joiners``, ``prepends``). So `"*ab*"` is
/// `^.*(?<![…])ab(?![…])`; a pattern without a star is an equality instead.
///
/// A pattern with `?` (one Character), or with literals this form does not take, has a second
/// form, ``clusterRegex(_:)``: exact on *simple* text (``SimpleClusters``), whose Characters a
/// regular expression can count; the compiler makes the server refuse other text
/// (``notSimple``), so the evaluator answers for it.
enum LikeRegex {
    /// The regular expression for `runs` (``LikePattern/literalRuns``: two or more, each of
    /// plain scalars), nil when a run holds anything else, or when there are more than
    /// ``maximumRuns`` (each run carries two brackets of some hundred ranges: a pattern of
    /// thousands of stars would be a regular expression the server compiles for long, or
    /// refuses as too complex).
    static func regex(_ runs: [String]) -> String? {
        guard (2...maximumRuns).contains(runs.count), runs.allSatisfy({ $0.unicodeScalars.allSatisfy(isPlain) }) else { return nil }
        var regex = "^"
        for (index, run) in runs.enumerated() where !run.isEmpty {
            if index > 0 { regex += ".*(?<!" + prepends + ")" }
            regex += escaped(run)
            regex += index == runs.count - 1 ? "$" : "(?!" + joiners + ")"
        }
        return regex
    }

    /// What a pattern is on simple text (``clusterRegex(_:)``).
    enum ClusterMatch: Equatable {
        /// The texts this regular expression matches.
        case regex(String)
        /// None: a literal Character is not of a simple cluster's shape (an emoji, a Hangul
        /// syllable…), so it equals no cluster of simple text, and only text the server refuses
        /// could match.
        case never
    }

    /// The regular expression for a pattern (``LikePattern/segmentElements``: nil for `?`)
    /// exact on *simple* text (``SimpleClusters``), whose every cluster is a base and its
    /// extenders, or one control; the compiler refuses other text in the server (``notSimple``).
    /// Each `?` is `(?:[base][extender]*|[control])` (just `[^extender]` before a star, which
    /// takes the extenders); each literal Character its scalars, followed before a star by
    /// `(?![extender])` (it must end a cluster); stars `.*`. Every element begins with a base or
    /// a control, so each starts on a cluster boundary. Nil past ``maximumBrackets`` uses of a
    /// class (each a bracket of some hundred ranges: more would be a regular expression the
    /// server compiles for long, or refuses as too complex).
    static func clusterRegex(_ segments: [[Character?]]) -> ClusterMatch? {
        let classes = SimpleClusters.current
        guard segments.joined().allSatisfy({ $0.map(classes.isSimple) ?? true }) else { return .never }
        let extender = classes.extenderBracket
        var regex = "^", brackets = 0
        for (index, segment) in segments.enumerated() {
            if index > 0 { regex += ".*" }
            let beforeStar = index < segments.count - 1
            for (position, element) in segment.enumerated() {
                let last = position == segment.count - 1
                if let character = element {
                    regex += escaped(String(character))
                    if last && beforeStar {
                        regex += "(?!" + extender + ")"
                        brackets += 1
                    }
                } else if last && beforeStar {
                    regex += "[^" + extender.dropFirst()
                    brackets += 1
                } else {
                    regex += "(?:" + classes.baseBracket + extender + "*|" + classes.controlBracket + ")"
                    brackets += 3
                }
            }
        }
        return brackets <= maximumBrackets ? .regex(regex + "$") : nil
    }

    /// What makes text not simple, so the server refuses it: an *other* scalar, or an extender
    /// at the start or after a control.
    static var notSimple: String {
        let classes = SimpleClusters.current
        return classes.otherBracket + "|^" + classes.extenderBracket + "|" + classes.controlBracket + classes.extenderBracket
    }

    /// The most brackets of a class ``clusterRegex(_:)`` writes (as many as ``regex(_:)``'s
    /// longest has: two per run).
    static let maximumBrackets = 2 * maximumRuns

    /// The most runs (stars + 1) a translated pattern has.
    static let maximumRuns = 17

    /// ASCII letters and digits as they are, other ASCII escaped with a backslash (a literal in
    /// PostgreSQL's advanced regular expressions), the rest as `\uXXXX`.
    static func escaped(_ run: String) -> String {
        var text = ""
        for u in run.unicodeScalars {
            if u.value >= 0x80 {
                text += SQLRegexPattern.escape(u.value)
            } else {
                if !(u.properties.isAlphabetic || ("0"..."9").contains(u)) { text += "\\" }
                text.unicodeScalars.append(u)
            }
        }
        return text
    }

    /// Whether a literal scalar behaves as a printable ASCII character does in segmentation —
    /// its own Character, taking extenders, joined by nothing else: printable ASCII, and any
    /// scalar Swift segments so (not a control, an extender, a prepend, a Hangul jamo or
    /// syllable, a regional indicator, an extended pictograph after a zero-width joiner, or an
    /// Indic conjunct consonant after a virama).
    static func isPlain(_ u: Unicode.Scalar) -> Bool {
        if u.value < 0x80 { return (0x20...0x7E).contains(u.value) }
        if (0x1100...0x11FF).contains(u.value) || (0xA960...0xA97F).contains(u.value) || (0xAC00...0xD7FF).contains(u.value)
            || (0x1F1E6...0x1F1FF).contains(u.value) { return false }
        let s = String(u)
        return ("a" + s).count == 2 && (s + "a").count == 2 && (s + "\u{301}").count == 1
            && ("\u{1F600}\u{200D}" + s).count == 2 && ("\u{915}\u{94D}" + s).count == 2
    }

    /// The scalars that join a printable ASCII character before them into one Character
    /// (Extend, ZWJ, SpacingMark), as a bracket expression.
    static let joiners = bracket { u in ("a" + String(u)).count == 1 }

    /// The scalars that join the printable ASCII character after them (Prepend).
    static let prepends = bracket { u in (String(u) + "a").count == 1 }

    /// A bracket of the scalars above ASCII where `test` holds. CJK ideographs, Hangul syllables
    /// and the private-use planes (none of them joins) are skipped.
    private static func bracket(_ test: (Unicode.Scalar) -> Bool) -> String {
        let values = (Array(UInt32(0x80)...0x1FFFF) + Array(UInt32(0xE0000)...0xE0FFF)).filter { value in
            if (0x4E00...0x9FFF).contains(value) || (0xAC00...0xD7A3).contains(value) || (0xE000...0xF8FF).contains(value) { return false }
            return Unicode.Scalar(value).map(test) ?? false
        }
        return SQLRegexPattern.bracket(values)
    }
}
