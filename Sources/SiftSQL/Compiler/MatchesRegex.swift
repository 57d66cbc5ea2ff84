import SiftEvaluation
import SiftLanguage

/// A `MATCHES` pattern (PCRE2, whole-string, UTF mode: `RegularExpression`) as a PostgreSQL
/// advanced regular expression (ARE, the `~` operator) that accepts exactly the same subjects —
/// for the subset of PCRE2 where the two dialects agree scalar for scalar. Anything else is nil
/// (the compiler then runs the test in memory):
///
/// | PCRE2 (the pattern as `RegularExpression` compiles it: NFC, literal under `[n]`) | ARE |
/// |---|---|
/// | the whole pattern (anchored at both ends) | `^(?:…)$` (`^$` for an empty pattern) |
/// | an ASCII letter or digit | itself |
/// | any other literal scalar (not a metacharacter, not NUL) | `\uXXXX` / `\UXXXXXXXX` |
/// | `\` + ASCII punctuation or space; `\n \t \r \f \e \a`; `\x{h…}`, `\xhh` | that scalar, as above |
/// | `.` (not a newline: PCRE2's default newline is LF, checked once: ``dotIsAllButLF``) | `[^\u000A]` |
/// | `[…]`, `[^…]` of literal scalars, escapes as above and ranges `a-z` | the same set, each bound `\uXXXX` |
/// | `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` (n, m ≤ 255, ARE's limit), each optionally lazy (`*?`) | greedy forms (whole-string matching: the same set) |
/// | `(…)`, `(?:…)` | `(?:…)` (no captures are read) |
/// | `a|b` | `a|b` |
/// | `\d \D \w \W \s \S \p{…} \P{…}` (not `\p`, `\P` under `[c]`) | a bracket of the scalars PCRE2 matches with it (``PCRE2ClassSets``) |
/// | in a bracket (not under `[c]`): those escapes, `[:alpha:]`, `[:^digit:]`… | their scalars among the bracket's |
/// | `(?i)` at the start | as `[c]` for the rest |
/// | under `[c]`: an ASCII literal, or bracket of ASCII members | a bracket of the scalars PCRE2's caseless matching accepts for each (``CaselessASCII``): `k` is `[Kk\u212A]` |
///
/// In both dialects `.` and a bracket match one code point, and text compares by code points, so
/// the translation is exact on any subject; the subject is prepared as the evaluator prepares it
/// (NFC as stored, `[d]` through `sift_fold_d`, literal under `[n]`).
///
/// Stays in memory: a literal or bracket member above ASCII under `[c]` (PCRE2's caseless
/// matching uses its own Unicode tables, read here for ASCII only), anchors `^ $` (PCRE2's `$`
/// also matches before a final newline), `\b` and the other assertions, classes in a bracket
/// under `[c]`,
/// backreferences, lookarounds, inline options but a leading `(?i)`, atomic groups, possessive quantifiers
/// (`a*+`: not the same set), `\Q…\E`, a `{` that is not one of the three quantifier forms
/// (versions of PCRE2 differ on `{,n}`), a `-` in a bracket other than first or last, a
/// literal `[` in a bracket, and a quantified group holding a quantifier or an alternation
/// (`(a+)+`, `(a|b)*`: PCRE2 backtracks through them exponentially and gives up with an error
/// past its match limit, where ARE, an automaton, would answer). A pattern PCRE2 refuses is
/// never translated: the evaluator's own error stands.
enum MatchesRegex {
    /// The ARE for `pattern` under MATCHES with `options`; nil outside the subset above or when
    /// PCRE2 refuses the pattern.
    static func regex(_ pattern: String, options: ComparisonOptions) -> String? {
        // `(?i)` first makes the whole pattern caseless, whatever the options say.
        let inlineCaseless = pattern.unicodeScalars.starts(with: "(?i)".unicodeScalars)
        let caseless = inlineCaseless || (options.contains(.caseInsensitive) && !options.contains(.normalized))
        // PCRE2's verdict first: an invalid pattern keeps the evaluator's error.
        do throws(EvaluationError) {
            _ = try RegularExpression.cached(pattern: pattern, options: options)
        } catch {
            return nil
        }
        let source = options.contains(.normalized) ? pattern : StringFolding.nfc(pattern)
        var parser = Parser(scalars: Array(source.unicodeScalars.dropFirst(inlineCaseless ? 4 : 0)), caseless: caseless ? CaselessASCII.current : nil)
        guard let body = parser.alternation(), parser.index == parser.scalars.count else { return nil }
        return body.text.isEmpty ? "^$" : "^(?:" + body.text + ")$"
    }

    /// Whether PCRE2's `.` (as `RegularExpression` compiles it) matches every scalar but LF:
    /// the library's newline convention is LF (the default build), so CR, VT, FF, NEL, LS and
    /// PS are ordinary. (Under CRLF, a lone LF would match; under ANYCRLF or ANY, CR would not.)
    /// Otherwise `.` is not translated.
    static let dotIsAllButLF: Bool = {
        func matches(_ subject: String, _ pattern: String) -> Bool {
            do throws(EvaluationError) {
                return try RegularExpression(pattern: pattern, options: .normalized).matches(subject)
            } catch {
                return false
            }
        }
        let others = ["\r", "\u{B}", "\u{C}", "\u{85}", "\u{2028}", "\u{2029}", "a"]
        return !matches("\n", ".") && others.allSatisfy { matches($0, ".") }
    }()

    /// A translated piece: its ARE text, and whether it holds a quantifier or an alternation
    /// (then it may not itself be quantified).
    struct Piece {
        var text: String
        var repeats: Bool
    }

    /// A recursive-descent reader of the subset, over the pattern's scalars.
    struct Parser {
        let scalars: [Unicode.Scalar]
        /// PCRE2's caseless sets under `[c]`: each literal and bracket member is then ASCII and
        /// stands for its set.
        let caseless: CaselessASCII?
        var index = 0
        /// Class escapes written so far: at most ``maximumClassEscapes`` (each a bracket of up to
        /// some hundred ranges, which the server compiles for long past a few).
        var classEscapes = 0

        private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        /// `branch (| branch)*`, up to a `)` or the end.
        mutating func alternation() -> Piece? {
            var branches: [Piece] = []
            while true {
                guard let branch = sequence() else { return nil }
                branches.append(branch)
                guard current == "|" else { break }
                index += 1
            }
            // ARE needs something in every branch; an empty one matches the empty string.
            let texts = branches.map { $0.text.isEmpty && branches.count > 1 ? "(?:)" : $0.text }
            return Piece(text: texts.joined(separator: "|"), repeats: branches.count > 1 || branches.contains { $0.repeats })
        }

        /// Quantified atoms up to `|`, `)` or the end.
        mutating func sequence() -> Piece? {
            var text = "", repeats = false
            while let u = current, u != "|", u != ")" {
                guard var atom = atom() else { return nil }
                switch quantifier() {
                case .none:
                    break
                case .some(let quantifier):
                    if atom.repeats { return nil }
                    atom = Piece(text: atom.text + quantifier, repeats: true)
                case .unsupported:
                    return nil
                }
                text += atom.text
                repeats = repeats || atom.repeats
            }
            return Piece(text: text, repeats: repeats)
        }

        /// A literal, an escape, `.`, a bracket or a group; nil for anything else.
        mutating func atom() -> Piece? {
            guard let u = current else { return nil }
            index += 1
            switch u {
            case ".":
                return dotIsAllButLF ? Piece(text: "[^\\u000A]", repeats: false) : nil
            case "[":
                return bracket().map { Piece(text: $0, repeats: false) }
            case "(":
                if current == "?" {
                    guard index + 1 < scalars.count, scalars[index + 1] == ":" else { return nil }
                    index += 2
                }
                guard let inner = alternation(), current == ")" else { return nil }
                index += 1
                return Piece(text: "(?:" + (inner.text.isEmpty ? "" : inner.text) + ")", repeats: inner.repeats)
            case "\\":
                if let letter = current, "dDwWsSpP".unicodeScalars.contains(letter) { return classEscape() }
                return escape().flatMap(literal)
            case "^", "$", "{", "*", "+", "?", ")", "|":
                return nil
            default:
                return u.value == 0 ? nil : literal(u.value)
            }
        }

        /// `\d \D \w \W \s \S`, `\p{…}`, `\P{…}`, `\pL` (the backslash read) as the bracket of the
        /// scalars PCRE2 matches with it (``PCRE2ClassSets``); `\p` and `\P` not under `[c]`
        /// (where PCRE2 may widen a case property).
        private mutating func classEscape() -> Piece? {
            guard let ranges = classEscapeRanges() else { return nil }
            return Piece(text: "[" + MatchesRegex.members(ranges.map { ($0.lowerBound, $0.upperBound) }) + "]", repeats: false)
        }

        /// The scalars of a class escape (the backslash read), as above.
        private mutating func classEscapeRanges() -> [ClosedRange<UInt32>]? {
            classEscapes += 1
            guard let letter = current, classEscapes <= MatchesRegex.maximumClassEscapes else { return nil }
            index += 1
            var escape = "\\" + String(letter)
            if letter == "p" || letter == "P" {
                guard caseless == nil, let next = current else { return nil }
                index += 1
                escape.unicodeScalars.append(next)
                if next == "{" {
                    while let u = current, u != "}", escape.count < 40 {
                        escape.unicodeScalars.append(u)
                        index += 1
                    }
                    guard current == "}" else { return nil }
                    index += 1
                    escape += "}"
                }
            }
            return PCRE2ClassSets.ranges(escape)
        }

        /// A POSIX class in a bracket, `[:alpha:]` or `[:^alpha:]` (the `[` read), as the scalars
        /// PCRE2 matches with it (Unicode-aware for most names under its UCP); not under `[c]`.
        private mutating func posixClassRanges() -> [ClosedRange<UInt32>]? {
            guard caseless == nil, current == ":" else { return nil }
            index += 1
            var name = ""
            while let u = current, u != ":", name.count < 8 {
                guard u.isASCII, u.properties.isLowercase || u == "^" else { return nil }
                name.unicodeScalars.append(u)
                index += 1
            }
            guard current == ":", index + 1 < scalars.count, scalars[index + 1] == "]" else { return nil }
            index += 2
            classEscapes += 1
            guard classEscapes <= MatchesRegex.maximumClassEscapes else { return nil }
            return PCRE2ClassSets.ranges("[[:" + name + ":]]")
        }

        /// A literal scalar: itself, or under `[c]` (ASCII only) the bracket of its caseless set.
        private func literal(_ value: UInt32) -> Piece? {
            guard let caseless else { return Piece(text: MatchesRegex.literal(value), repeats: false) }
            guard let set = caseless.set(value) else { return nil }
            let text = set == [value] ? MatchesRegex.literal(value) : "[" + MatchesRegex.members(set.map { ($0, $0) }) + "]"
            return Piece(text: text, repeats: false)
        }

        /// What follows an atom.
        enum Quantifier {
            case none
            /// `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}` (a lazy form as its greedy one).
            case some(String)
            /// A possessive quantifier, a quantifier right after another, or a `{` that is no
            /// counted quantifier of the three forms.
            case unsupported
        }

        /// The quantifier at the current place, and an optional lazy `?` after it.
        mutating func quantifier() -> Quantifier {
            guard let u = current else { return .none }
            var text: String
            switch u {
            case "*", "+", "?":
                index += 1
                text = String(u)
            case "{":
                guard let counted = counted() else { return .unsupported }
                text = counted
            default:
                return .none
            }
            if current == "?" { index += 1 } else if current == "+" { return .unsupported }
            if let next = current, "*+?{".unicodeScalars.contains(next) { return .unsupported }
            return .some(text)
        }

        /// `{n}`, `{n,}`, `{n,m}` with n (and m) at most 255; nil (nothing consumed) otherwise.
        private mutating func counted() -> String? {
            var i = index + 1
            func number() -> Int? {
                var digits = ""
                while i < scalars.count, ("0"..."9").contains(scalars[i]), digits.count < 4 {
                    digits.unicodeScalars.append(scalars[i])
                    i += 1
                }
                return digits.isEmpty ? nil : Int(digits)
            }
            guard let low = number(), low <= 255 else { return nil }
            var text = "{\(low)"
            if i < scalars.count, scalars[i] == "," {
                i += 1
                text += ","
                if let high = number() {
                    guard high <= 255, high >= low else { return nil }
                    text += "\(high)"
                }
            }
            guard i < scalars.count, scalars[i] == "}" else { return nil }
            index = i + 1
            return text + "}"
        }

        /// The scalar an escape stands for (the backslash read): ASCII punctuation or space as
        /// itself, `\n \t \r \f \e \a`, `\x{h…}` and `\xhh`; nil for anything else.
        private mutating func escape() -> UInt32? {
            guard let u = current else { return nil }
            index += 1
            switch u {
            case "n": return 0x0A
            case "t": return 0x09
            case "r": return 0x0D
            case "f": return 0x0C
            case "e": return 0x1B
            case "a": return 0x07
            case "x":
                var digits = ""
                if current == "{" {
                    index += 1
                    while let d = current, d != "}" {
                        guard d.properties.isASCIIHexDigit, digits.count < 8 else { return nil }
                        digits.unicodeScalars.append(d)
                        index += 1
                    }
                    guard current == "}" else { return nil }
                    index += 1
                } else {
                    while let d = current, d.properties.isASCIIHexDigit, digits.count < 2 {
                        digits.unicodeScalars.append(d)
                        index += 1
                    }
                    guard digits.count == 2 else { return nil }
                }
                guard let value = UInt32(digits, radix: 16), value != 0, Unicode.Scalar(value) != nil else { return nil }
                return value
            default:
                guard u.isASCII, !u.properties.isAlphabetic, !("0"..."9").contains(u), u.value >= 0x20, u.value < 0x7F else { return nil }
                return u.value
            }
        }

        /// A bracket's members (the `[` read) as ARE brackets of `\u` bounds; nil outside the
        /// subset. A `]` first is a member, a `-` only first or last.
        private mutating func bracket() -> String? {
            var negated = false
            if current == "^" { negated = true; index += 1 }
            var ranges: [(UInt32, UInt32)] = []
            var first = true
            while true {
                guard let u = current else { return nil }
                if u == "]" && !first { index += 1; break }
                first = false
                // A class escape or a POSIX class: its scalars (under [c], none of them).
                if u == "\\" || u == "[", index + 1 < scalars.count,
                   u == "[" ? scalars[index + 1] == ":" : "dDwWsSpP".unicodeScalars.contains(scalars[index + 1]) {
                    index += 1
                    guard caseless == nil, let members = u == "[" ? posixClassRanges() : classEscapeRanges() else { return nil }
                    ranges += members.map { ($0.lowerBound, $0.upperBound) }
                    // (A class does not begin a range: PCRE2 refuses that, or reads a literal -.)
                    if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" { return nil }
                    continue
                }
                guard let low = member() else { return nil }
                if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                    index += 1
                    guard current != "[", let high = member(), high >= low else { return nil }
                    if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" { return nil }
                    ranges.append((low, high))
                } else {
                    if low == 0x2D, !(ranges.isEmpty || current == "]") { return nil }
                    ranges.append((low, low))
                }
            }
            guard !ranges.isEmpty else { return nil }
            if let caseless {
                // Every member ASCII; the bracket holds each one's caseless set.
                var values: [UInt32] = []
                for (low, high) in ranges {
                    for value in low...high {
                        guard let set = caseless.set(value) else { return nil }
                        values += set
                    }
                }
                ranges = values.map { ($0, $0) }
            }
            return (negated ? "[^" : "[") + MatchesRegex.members(ranges) + "]"
        }

        /// One bracket member: a literal scalar (not `[`, `\`) or an escape.
        private mutating func member() -> UInt32? {
            guard let u = current else { return nil }
            index += 1
            if u == "\\" { return escape() }
            guard u != "[", u.value != 0 else { return nil }
            return u.value
        }
    }

    /// The most class escapes a translated pattern has.
    static let maximumClassEscapes = 8

    /// Ranges of scalars as the inside of an ARE bracket (merged and sorted), each bound a
    /// character-entry escape.
    static func members(_ ranges: [(UInt32, UInt32)]) -> String {
        var merged: [(UInt32, UInt32)] = []
        for (low, high) in ranges.sorted(by: { $0.0 < $1.0 }) {
            if let last = merged.last, last.1 &+ 1 >= low {
                merged[merged.count - 1].1 = max(last.1, high)
            } else {
                merged.append((low, high))
            }
        }
        return merged.map { $0.0 == $0.1 ? escaped($0.0) : escaped($0.0) + "-" + escaped($0.1) }.joined()
    }

    /// A literal scalar in ARE: ASCII letters and digits as they are, the rest `\uXXXX`.
    static func literal(_ value: UInt32) -> String {
        if let u = Unicode.Scalar(value), u.isASCII, u.properties.isAlphabetic || ("0"..."9").contains(u) { return String(u) }
        return escaped(value)
    }

    /// `\uXXXX` or `\UXXXXXXXX` (a character-entry escape, in and out of brackets).
    static func escaped(_ value: UInt32) -> String { SQLRegexPattern.escape(value) }
}
