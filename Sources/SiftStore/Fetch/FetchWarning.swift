import SiftLanguage

/// A comparison in a fetch that the model's types decide before any object is read — always
/// false, always true, or not what its author meant — though it is no error (LANGUAGE.md §3,
/// "Never a silent zero"): the fetch still runs and answers as the language says, and the
/// warning says why the answer is what it is and what was probably meant.
///
///     let warnings = try store.warnings(for: FetchRequest(statement: "Album WHERE Artist == 3"))
///     warnings[0].message     // "Artist == 3 is always false: Artist is a to-one relationship of Album to Artist, and an object never equals a number"
///     warnings[0].suggestion  // "Artist.ArtistId == 3"
///
/// Get them with ``PersistentStore/warnings(for:)`` or ``DataModel/warnings(for:)``; the
/// `sift` commands and the REPL print them on standard error, with a caret under ``range``.
public struct FetchWarning: Sendable, Hashable, CustomStringConvertible {
    /// What kind of warning this is. New codes may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable, Hashable {
            case kindMismatch, sqlWildcard, degenerateAggregate, quotedKey
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The two sides are of kinds that are never equal (or have no order, or are no
        /// strings): a relationship compared with a number, an Integer attribute with a string.
        public static let kindMismatch = Code(.kindMismatch)
        /// A LIKE pattern written with SQL's wildcards (`%`, `_`), which LIKE reads as themselves
        /// (its wildcards are `*` and `?`).
        public static let sqlWildcard = Code(.sqlWildcard)
        /// An aggregate the types make constant: `@avg` or `@sum` of dates or strings (means and
        /// sums are of numbers only: always nil, always 0).
        public static let degenerateAggregate = Code(.degenerateAggregate)
        /// A string constant spelt as a key of the object (`"teamID" == 'ATL'`, as SQL quotes an
        /// identifier): a quoted text is a string, so the comparison is of two constants.
        public static let quotedKey = Code(.quotedKey)

        public var description: String { kind.rawValue }
    }

    /// The part of a request a warning is in: its ``range`` is an offset into that part's text
    /// (for a statement, every part is in the statement's text).
    public enum Clause: String, Sendable, Hashable {
        /// The predicate (`WHERE`).
        case predicate
        /// The HAVING predicate of a grouped fetch.
        case having
        /// A property of a dictionary fetch (`SELECT TERNARY(…) AS x`), or a group-by one.
        case properties
    }

    public let code: Code
    /// What the comparison does and why, naming it as written: `Artist == 3 is always false:
    /// Artist is a to-one relationship of Album to Artist, and an object never equals a number`.
    public let message: String
    /// The comparison that was probably meant (`Artist.ArtistId == 3`), where one can be said.
    public let suggestion: String?
    /// Where the comparison was written (UTF-8 byte offsets into the text it was parsed from),
    /// for nodes that were parsed.
    public let range: SourceRange?
    public let clause: Clause

    public init(_ code: Code, _ message: String, suggestion: String? = nil, range: SourceRange? = nil, clause: Clause = .predicate) {
        self.code = code
        self.message = message
        self.suggestion = suggestion
        self.range = range
        self.clause = clause
    }

    /// `message; did you mean X?`
    public var description: String {
        guard let suggestion else { return message }
        return "\(message); did you mean \(suggestion)?"
    }

    /// The 1-based column (in characters) where the comparison starts in `source`, the text the
    /// request's clause was parsed from; nil without a range.
    public func column(in source: String) -> Int? {
        guard let range else { return nil }
        let utf8 = source.utf8
        let offset = max(0, min(range.start, utf8.count))
        return Substring(utf8[utf8.startIndex..<utf8.index(utf8.startIndex, offsetBy: offset)]).count + 1
    }
}

extension DataModel {
    /// The comparisons of a fetch request that the model's types decide (``FetchWarning``), in
    /// the order they are written: the predicate's, then the properties', then HAVING's. The
    /// request's errors (an unknown key, a string that is no date for a Date attribute) are
    /// thrown, as the fetch would throw them.
    public func warnings(for request: FetchRequest) throws -> [FetchWarning] {
        let entity: EntityDescription
        do throws(ModelError) {
            entity = try requireEntity(request.entityName)
        } catch {
            throw StoreError(.unknownEntity, error.message, entity: request.entityName)
        }
        return try TypedRequest(request, entity: entity, model: self).warnings
    }

    /// The comparisons of a predicate on objects of `entity` that the model's types decide (a
    /// batch update's or delete's predicate).
    public func warnings(for predicate: PredicateNode, entity: String) throws -> [FetchWarning] {
        try warnings(for: FetchRequest(entityName: entity, predicate: predicate))
    }
}

extension PersistentStore {
    /// The comparisons of a fetch request that the store's whole ``model`` decides.
    public func warnings(for request: FetchRequest) throws -> [FetchWarning] {
        try model.warnings(for: request)
    }
}
