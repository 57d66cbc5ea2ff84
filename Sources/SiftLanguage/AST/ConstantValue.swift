import Foundation

/// A constant in a predicate: a literal, or a value bound to `%@` or to a `$variable`.
///
/// Arrays and sets bound as arguments become aggregate expressions of constants, so a
/// constant is always a single value.
public enum ConstantValue: Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    /// A stored object, by its ID (`parent == %@` with an object); prints as
    /// `CAST("<id>", "NSManagedObjectID")`.
    case objectID(ObjectID)

    /// The kind's name, as used in error messages and in the AST's JSON form.
    public var kindName: String {
        switch self {
        case .null: "nil"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "double"
        case .decimal: "decimal"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .uuid: "uuid"
        case .objectID: "objectID"
        }
    }

    public var description: String { CanonicalPrinter.format(self) }

    /// True for integers, doubles, decimals and booleans (booleans are numbers, as in NSNumber).
    public var isNumeric: Bool {
        switch self {
        case .bool, .int, .double, .decimal: true
        default: false
        }
    }
}

extension ConstantValue: Hashable {
    /// Structural equality of constants, as the AST needs it:
    /// - a boolean equals the integer 1 or 0 (the canonical printer writes booleans as `1`/`0`,
    ///   as Apple's `predicateFormat` does, and booleans are numbers in the language);
    /// - doubles are equal when their bit patterns are (so `-0.0` and `0.0` stay distinct and a
    ///   printed predicate reads back bit for bit);
    /// - other kinds never equal each other (`1` and `1.0` are different constants).
    public static func == (lhs: ConstantValue, rhs: ConstantValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.bool(a), .int(b)), let (.int(b), .bool(a)): (a ? 1 : 0) == b
        case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
        case let (.decimal(a), .decimal(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.date(a), .date(b)): a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case let (.data(a), .data(b)): a == b
        case let (.uuid(a), .uuid(b)): a == b
        case let (.objectID(a), .objectID(b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let b): hasher.combine(2 as UInt8); hasher.combine(Int64(b ? 1 : 0))
        case .int(let i): hasher.combine(2 as UInt8); hasher.combine(i)
        case .double(let d): hasher.combine(3 as UInt8); hasher.combine(d.bitPattern)
        case .decimal(let d): hasher.combine(4 as UInt8); hasher.combine(d)
        case .string(let s): hasher.combine(5 as UInt8); hasher.combine(s)
        case .date(let d): hasher.combine(6 as UInt8); hasher.combine(d.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let d): hasher.combine(7 as UInt8); hasher.combine(d)
        case .uuid(let u): hasher.combine(8 as UInt8); hasher.combine(u)
        case .objectID(let o): hasher.combine(9 as UInt8); hasher.combine(o)
        }
    }
}
