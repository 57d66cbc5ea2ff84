import Foundation

/// Typed reads of a value, nil when it is another kind: `if let title = note["title"]?.string`.
///
/// Each accessor reads its own kind, except that numbers widen: ``double`` reads integers and
/// decimals too, ``decimal`` reads integers. No accessor parses strings or converts between
/// other kinds.
extension Value {
    /// The string of a `.string`.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer of an `.int`, as Swift's `Int` (nil where `Int` is 32 bits and the value does
    /// not fit). Doubles and decimals are not read: an integer attribute holds `.int`.
    public var int: Int? {
        if case .int(let i) = self { return Int(exactly: i) }
        return nil
    }

    /// The integer of an `.int`, as stored.
    public var int64: Int64? {
        if case .int(let i) = self { return i }
        return nil
    }

    /// A number as a double: a `.double`, or an `.int` or `.decimal` widened (to the nearest
    /// double).
    public var double: Double? {
        switch self {
        case .double(let d): d
        case .int(let i): Double(i)
        case .decimal(let d): NSDecimalNumber(decimal: d).doubleValue
        default: nil
        }
    }

    /// A `.decimal`, or an `.int` widened (exactly).
    public var decimal: Decimal? {
        switch self {
        case .decimal(let d): d
        case .int(let i): Decimal(i)
        default: nil
        }
    }

    /// The boolean of a `.bool` (numbers are not read as booleans).
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The date of a `.date`.
    public var date: Date? {
        if case .date(let d) = self { return d }
        return nil
    }

    /// The bytes of a `.data`.
    public var data: Data? {
        if case .data(let d) = self { return d }
        return nil
    }

    /// The UUID of a `.uuid`.
    public var uuid: UUID? {
        if case .uuid(let u) = self { return u }
        return nil
    }

    /// The elements of an `.array`, or of a `.set` (a to-many relationship) in its order.
    public var array: [Value]? { collectionElements }

    /// The dictionary of a `.dictionary`.
    public var dictionary: ValueDictionary? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    /// The object of an `.object` (a record, a queryable Swift value).
    public var object: (any KeyValueObject)? {
        if case .object(let o) = self { return o }
        return nil
    }
}
