import SiftEvaluation
import SiftLanguage
import SiftSQL

/// SQL functions a PostgreSQL store installs so that the server prepares text exactly as the
/// evaluator does, where no stored fold serves (a fold of a computed value, `[d]` alone, a case
/// mapping): the evaluator's own Swift functions, tabulated per Unicode scalar when the store
/// is made.
///
/// | function | the evaluator's |
/// |---|---|
/// | `sift_fold_c(t)`, `sift_fold_d(t)`, `sift_fold_cd(t)` | `StringFolding.fold(t, options: [c] / [d] / [cd])` |
/// | `sift_lowercase(t)`, `sift_uppercase(t)` | `t.lowercased()`, `t.uppercased()`, in NFC (the form SQL holds text in) |
///
/// **Why a table per scalar is exact.** `StringFolding.fold` works scalar by scalar on the NFD
/// form — each scalar case-folded and/or dropped when it is a nonspacing mark — then composes
/// the result to NFC; Swift's case mappings work scalar by scalar on the text as it is. So each
/// function is: ASCII text by PostgreSQL's ASCII-only `lower`/`upper` under `COLLATE "C"` (or
/// as it is for `[d]`); other text through `normalize(…, NFD)` for the folds, `replace` for each
/// scalar that maps to several, `regexp_replace` for those mapping to none, one `translate` for
/// those mapping to one, then `normalize(…, NFC)`. Every mapped-to scalar maps to itself (``statements()`` checks it,
/// and refuses to write a function otherwise), so no scalar is mapped twice.
/// `PostgreSQLTextFunctionsTests` compares the server's results with Swift's on every mapped
/// scalar and on mixed text.
///
/// The composition at the end is the server's (`normalize` needs a UTF-8 database; PostgreSQL
/// 15 has Unicode 14's tables): scalars assigned after that version compose as the server
/// knows them.
package enum PostgreSQLTextFunctions {
    static let foldCase = SQLTextFunction.foldCase.rawValue
    static let foldDiacritics = SQLTextFunction.foldDiacritics.rawValue
    static let foldCaseAndDiacritics = SQLTextFunction.foldCaseAndDiacritics.rawValue
    static let lowercase = SQLTextFunction.lowercase.rawValue
    static let uppercase = SQLTextFunction.uppercase.rawValue

    /// A scalar's image under one of the functions: nil where it is the scalar itself.
    private typealias Mapping = (Unicode.Scalar) -> String?

    /// ``statements()``, made once per process.
    package static let installation = Result { () throws(Clash) in try statements() }

    /// A scalar both mapped and mapped to by one function, which a single pass cannot tabulate.
    package struct Clash: Error, CustomStringConvertible {
        package let description: String
    }

    /// `CREATE OR REPLACE FUNCTION` statements for every function, tabulated from this
    /// process's Swift (a look at every Unicode scalar: use ``installation``).
    package static func statements() throws(Clash) -> [String] {
        func folding(_ options: ComparisonOptions) -> Mapping {
            let caseFold = options.contains(.caseInsensitive), strip = options.contains(.diacriticInsensitive)
            return { u in
                guard (caseFold && u.properties.changesWhenCaseFolded) || (strip && u.properties.generalCategory == .nonspacingMark) else { return nil }
                let image = StringFolding.nfd(StringFolding.fold(String(u), options: options))
                return image == String(u) ? nil : image
            }
        }
        let c: ComparisonOptions = [.caseInsensitive], d: ComparisonOptions = [.diacriticInsensitive]
        return [
            try statement(foldCase, ascii: "lower($1 COLLATE \"C\")", decomposing: true, folding(c)),
            try statement(foldDiacritics, ascii: "$1", decomposing: true, folding(d)),
            try statement(foldCaseAndDiacritics, ascii: "lower($1 COLLATE \"C\")", decomposing: true, folding(c.union(d))),
            try statement(lowercase, ascii: "lower($1 COLLATE \"C\")", decomposing: false) { u in
                u.properties.changesWhenLowercased ? u.properties.lowercaseMapping : nil
            },
            try statement(uppercase, ascii: "upper($1 COLLATE \"C\")", decomposing: false) { u in
                u.properties.changesWhenUppercased ? u.properties.uppercaseMapping : nil
            },
        ]
    }

    /// One function: `ascii` for ASCII text (as many bytes as characters), the tables for the
    /// rest. Written for speed on the server (about 2 µs a row for `[d]`, 7 µs for `[c]` and the
    /// case mappings, on accented Latin text): one `SELECT` of one expression, not `STRICT` (a
    /// NULL gives NULL all the same), so that PostgreSQL inlines it into the query; the
    /// `replace`s only run when the text holds a scalar that expands (a regular expression's
    /// bracket, which PostgreSQL tests by a table); the removed scalars go by one
    /// `regexp_replace` of such a bracket; `translate`, which looks each character up in its
    /// list from the start, lists ASCII first (the unmapped letters as themselves, the most
    /// frequent first), then the combining marks and Latin letters, then the rest.
    private static func statement(_ name: String, ascii: String, decomposing: Bool, _ mapping: Mapping) throws(Clash) -> String {
        var single: [UInt32: Unicode.Scalar] = [:], removed: [UInt32] = [], expanded: [(Unicode.Scalar, String)] = []
        var images = Set<Unicode.Scalar>()
        for value in UInt32(0x41)...0x10FFFF {
            guard let u = Unicode.Scalar(value), value < 0x80 ? (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) : true,
                  let image = mapping(u) else { continue }
            let scalars = Array(image.unicodeScalars)
            images.formUnion(scalars)
            switch scalars.count {
            case 0: removed.append(value)
            case 1: single[value] = scalars[0]
            default: expanded.append((u, image))
            }
        }
        let sources = Set(single.keys).union(removed).union(expanded.map(\.0.value))
        if let clash = images.first(where: { sources.contains($0.value) }) {
            throw Clash(description: "\(name): U+\(String(clash.value, radix: 16, uppercase: true)) is both mapped and mapped to")
        }
        let input = decomposing ? "normalize($1, NFD)" : "$1"
        var text = input
        if !expanded.isEmpty {
            var chain = input
            for (source, image) in expanded { chain = "replace(\(chain), \(escapedLiteral(String(source))), \(escapedLiteral(image)))" }
            text = "CASE WHEN \(input) ~ \(escapedLiteral(SQLRegexPattern.bracket(expanded.map(\.0.value)))) THEN \(chain) ELSE \(input) END"
        }
        // (The removed scalars first: `translate` then finds every character it is given early.)
        if !removed.isEmpty { text = "regexp_replace(\(text), \(escapedLiteral(SQLRegexPattern.bracket(removed))), '', 'g')" }
        if !single.isEmpty {
            // The head: listed whether mapped or not, so that frequent characters are found early.
            let frequent = "etaoinsrhldcumfpgwybvkxjqz ETAOINSRHLDCUMFPGWYBVKXJQZ0123456789.,-'\"()/:;!?&@#%*+=_[]{}<>|\\^`~$"
            var head = frequent.unicodeScalars.map(\.value)
            // (Decomposed text holds marks where composed text holds accented letters.)
            let marks = Array(UInt32(0x300)...0x36F), latin = Array(UInt32(0xC0)...0x24F)
            head += decomposing ? marks + latin : latin + marks
            let listed = Set(head), removedSet = Set(removed)
            var from = String.UnicodeScalarView(), to = String.UnicodeScalarView()
            for value in head where !removedSet.contains(value) {
                guard let u = Unicode.Scalar(value) else { continue }
                from.append(u)
                to.append(single[value] ?? u)
            }
            for (value, image) in single.sorted(by: { $0.key < $1.key }) where !listed.contains(value) {
                guard let u = Unicode.Scalar(value) else { continue }
                from.append(u)
                to.append(image)
            }
            text = "translate(\(text), \(escapedLiteral(String(from))), \(escapedLiteral(String(to))))"
        }
        return """
            CREATE OR REPLACE FUNCTION \(SQLIdentifier.quoted(name))(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $sift$
            SELECT CASE WHEN octet_length($1) = char_length($1) THEN \(ascii) ELSE normalize(\(text), NFC) END
            $sift$
            """
    }

    /// `E'text'`, backslashes and quotes doubled: the same text whatever the session's
    /// `standard_conforming_strings` when the function's body is parsed (at its first call in
    /// each session) — for the regular expressions' `\u` escapes, and `translate`'s backslash.
    private static func escapedLiteral(_ text: String) -> String {
        "E'" + text.replacingScalar("\\", with: "\\\\").replacingScalar("'", with: "''") + "'"
    }
}
