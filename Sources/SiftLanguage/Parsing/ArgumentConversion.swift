import Foundation

/// Turns Swift values given for `%@` (and for `$variables`) into AST nodes.
///
/// Accepted: `nil`/`NSNull`, `Bool`, every integer type, `Double`, `Float`, `Decimal`, `String`,
/// `Substring`, `Character`, `Date`, `Data`, `UUID`, arrays and sets of these (which become
/// aggregates), dictionaries with string keys (which become dictionary expressions, keys in
/// sorted order), ``ConstantValue`` and ``ExpressionNode`` (used as is).
public enum ArgumentConversion {
    /// Why a value cannot be an argument.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The expression for a `%@` argument or a variable's value.
    public static func expression(from value: Any?, depth: Int = 0) throws(Failure) -> ExpressionNode {
        guard depth < 64 else { throw Failure(description: "arrays or dictionaries nested more than 64 deep") }
        guard let value else { return ExpressionNode(.constant(.null)) }
        if let constant = try constant(from: value) { return ExpressionNode(.constant(constant)) }
        // An Optional inside the Any: look through it.
        if let optional = value as? any OptionalProtocol { return try expression(from: optional.wrappedAny, depth: depth) }
        if let expression = value as? ExpressionNode { return expression }
        if let array = value as? [Any?] {
            var elements: [ExpressionNode] = []
            elements.reserveCapacity(array.count)
            for element in array { elements.append(try expression(from: element, depth: depth + 1)) }
            return ExpressionNode(.aggregate(elements))
        }
        if let array = value as? [Any] {
            return try expression(from: array.map { Optional($0) }, depth: depth)
        }
        if let set = value as? Set<AnyHashable> {
            return try expression(from: set.map { Optional($0.base) }, depth: depth)
        }
        if let dictionary = value as? [AnyHashable: Any] {
            var entries: [DictionaryEntry] = []
            entries.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                guard let name = key.base as? String else {
                    throw Failure(description: "a dictionary's keys must be strings, not \(type(of: key.base))")
                }
                entries.append(DictionaryEntry(name, try expression(from: element, depth: depth + 1)))
            }
            // A Swift dictionary has no order of its own: sorted keys print the same every time.
            entries.sort { $0.key < $1.key }
            return ExpressionNode(.dictionary(entries))
        }
        throw Failure(description: "a value of type \(type(of: value)) cannot be used in a predicate")
    }

    /// The constant for a single (non-collection) value; nil when the value is a collection.
    public static func constant(from value: Any) throws(Failure) -> ConstantValue? {
        // The common types first: every `as?` on an `Any` is a dynamic cast.
        switch value {
        case let s as String: return .string(s)
        case let i as Int: return .int(Int64(i))
        case let d as Double:
            guard !d.isNaN else { throw Failure(description: "NaN cannot be used in a predicate") }
            return .double(d)
        case let b as Bool: return .bool(b)
        case let c as ConstantValue: return c
        case let d as Date: return .date(d)
        case let i as Int64: return .int(i)
        case let s as Substring: return .string(String(s))
        case let c as Character: return .string(String(c))
        case let i as Int32: return .int(Int64(i))
        case let i as Int16: return .int(Int64(i))
        case let i as Int8: return .int(Int64(i))
        case let u as UInt: return u <= UInt(Int64.max) ? .int(Int64(u)) : .double(Double(u))
        case let u as UInt64: return u <= UInt64(Int64.max) ? .int(Int64(u)) : .double(Double(u))
        case let u as UInt32: return .int(Int64(u))
        case let u as UInt16: return .int(Int64(u))
        case let u as UInt8: return .int(Int64(u))
        case let f as Float:
            guard !f.isNaN else { throw Failure(description: "NaN cannot be used in a predicate") }
            return .double(Double(f))
        case let d as Decimal:
            guard !d.isNaN else { throw Failure(description: "NaN cannot be used in a predicate") }
            return .decimal(d)
        case let d as Data: return .data(d)
        case let u as UUID: return .uuid(u)
        case let o as any ObjectIDConvertible: return .objectID(o.objectID)
        case is NSNull: return .null
        default: return nil
        }
    }

    /// Looks through `Optional` wrapped in `Any`.
    static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let optional = value as? any OptionalProtocol { return optional.wrappedAny }
        return value
    }
}

protocol OptionalProtocol { var wrappedAny: Any? { get } }
extension Optional: OptionalProtocol {
    var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): ArgumentConversion.unwrap(wrapped)
        case .none: nil
        }
    }
}
