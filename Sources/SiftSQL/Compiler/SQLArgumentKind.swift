import SiftEvaluation
import SiftStore

/// What a value passed to `sift_call`, `sift_cast`, `sift_order` or a `sift_group_…` aggregate
/// is in the evaluator, written as one letter per argument (the functions' `kinds` argument).
/// SQLite values do not say it themselves — dates are REAL seconds since 2001, booleans INTEGER
/// 0/1, UUIDs 16-byte BLOBs, decimals TEXT — so the
/// compiler, which knows every value's kind statically (``SQLKind``), passes it along, and the
/// function reads each value back exactly as the store reads that kind of column.
package enum SQLArgumentKind: Character, CaseIterable, Sendable {
    case integer = "i"
    case boolean = "b"
    case real = "r"
    /// An integer or a real, whichever SQLite holds (arithmetic that may overflow).
    case mixed = "m"
    /// A decimal: its canonical text (``DecimalText``), REAL in a store of layout 2, or the
    /// integer 0 of an empty sum.
    case decimal = "e"
    case string = "s"
    case date = "d"
    case data = "x"
    case uuid = "u"
    /// Only ever NULL.
    case null = "n"

    /// The letter for a compiled value's kind; nil for kinds the functions do not take
    /// (objects, values of undefined kind).
    package init?(_ kind: SQLKind) {
        switch kind {
        case .number(.integer): self = .integer
        case .number(.boolean): self = .boolean
        case .number(.real): self = .real
        case .number(.mixed): self = .mixed
        case .number(.decimal): self = .decimal
        case .object, .dynamic: return nil
        case .string: self = .string
        case .date: self = .date
        case .data: self = .data
        case .uuid: self = .uuid
        case .null: self = .null
        }
    }

    /// The `kinds` argument's letters, one per argument; nil when one is not a kind.
    package static func parse(_ text: String) -> [SQLArgumentKind]? {
        var kinds: [SQLArgumentKind] = []
        for letter in text {
            guard let kind = SQLArgumentKind(rawValue: letter) else { return nil }
            kinds.append(kind)
        }
        return kinds
    }
}
