import Foundation
import SiftLanguage

extension Value {
    /// Converts a Swift or Foundation value: `nil`/`NSNull` → `.null`; `Bool`; every integer
    /// type (a `UInt64` beyond `Int64.max` becomes a double); `Double`, `Float`; `Decimal`;
    /// `String`, `Substring`, `Character`; `Date`; `Data`; `UUID`; `NSNumber` (a boolean
    /// NSNumber is a boolean); `[String: Any]` (and `NSDictionary`) → `.dictionary` with its
    /// keys sorted (a Swift dictionary has no order; for an order, pass `[(String, Any?)]` or
    /// `KeyValuePairs<String, Any?>`); `[Any]` (and `NSArray`) → `.array`; sets → `.set`;
    /// ``Value``, ``ValueDictionary``, ``ConstantValue`` and ``KeyValueObject`` as they are.
    ///
    /// Anything else — or nesting deeper than ``JSONParser/maximumDepth`` — throws
    /// ``EvaluationError`` with code `invalidArgument`.
    public init(any value: Any?) throws(EvaluationError) {
        var shapes = DictionaryShapes()
        self = try AnyConversion.value(value, depth: 0, shapes: &shapes)
    }
}

/// The conversion behind ``Value/init(any:)``.
enum AnyConversion {
    static let booleanNumberType: Any.Type = type(of: NSNumber(value: true))

    /// `value` as a ``Value``; dictionaries of the same keys in the same order share them
    /// through `shapes` (an array of records converts to records of one shape).
    static func value(_ value: Any?, depth: Int, shapes: inout DictionaryShapes) throws(EvaluationError) -> Value {
        guard depth <= JSONParser.maximumDepth else {
            throw EvaluationError(.invalidArgument, "a value nested more than \(JSONParser.maximumDepth) deep")
        }
        guard let value else { return .null }
        // NSNumber first: Swift numbers cast to it, and it casts to every Swift number.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber { return self.number(number) }
        // Scalars convert as format arguments do (one conversion for both).
        do throws(ArgumentConversion.Failure) {
            if let constant = try ArgumentConversion.constant(from: value) { return Value(constant) }
        } catch {
            throw EvaluationError(.invalidArgument, error.description)
        }
        switch value {
        case let v as Value: return v
        case let d as ValueDictionary: return .dictionary(d)
        case let o as any KeyValueObject: return .object(o)
        case let o as any AnyOptional: return try self.value(o.wrappedAny, depth: depth, shapes: &shapes)
        default: break
        }
        // An empty array also casts to an empty list of pairs: it is an array.
        if let array = value as? [Any], array.isEmpty { return .array([]) }
        if let pairs = value as? [(String, Any?)] {
            return try dictionary(pairs, depth: depth, shapes: &shapes)
        }
        if let pairs = value as? KeyValuePairs<String, Any?> {
            return try dictionary(pairs.map { ($0.key, $0.value) }, depth: depth, shapes: &shapes)
        }
        if let pairs = value as? KeyValuePairs<String, Any> {
            return try dictionary(pairs.map { ($0.key, $0.value) }, depth: depth, shapes: &shapes)
        }
        if let dictionary = value as? [String: Any?] {
            return try self.dictionary(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, depth: depth, shapes: &shapes)
        }
        if let dictionary = value as? [String: Any] {
            return try self.dictionary(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, depth: depth, shapes: &shapes)
        }
        if let array = value as? [Any?] {
            return .array(try elements(array, depth: depth, shapes: &shapes))
        }
        if let array = value as? [Any] {
            return .array(try elements(array.map { Optional($0) }, depth: depth, shapes: &shapes))
        }
        if let set = value as? Set<AnyHashable> {
            return .set(try elements(set.map { Optional($0.base) }, depth: depth, shapes: &shapes))
        }
        throw EvaluationError(.invalidArgument, "a value of type \(type(of: value)) cannot be converted to a Value")
    }

    static func number(_ number: NSNumber) -> Value {
        if type(of: number) == booleanNumberType { return .bool(number.boolValue) }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            return .double(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"):
            let u = number.uint64Value
            return u <= UInt64(Int64.max) ? .int(Int64(u)) : .double(Double(u))
        default:
            return .int(number.int64Value)
        }
    }

    static func dictionary(_ pairs: [(String, Any?)], depth: Int, shapes: inout DictionaryShapes) throws(EvaluationError) -> Value {
        var converted: [(String, Value)] = []
        converted.reserveCapacity(pairs.count)
        for (key, element) in pairs { converted.append((key, try value(element, depth: depth + 1, shapes: &shapes))) }
        return .dictionary(shapes.dictionary(converted))
    }

    static func elements(_ array: [Any?], depth: Int, shapes: inout DictionaryShapes) throws(EvaluationError) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(array.count)
        for element in array { values.append(try value(element, depth: depth + 1, shapes: &shapes)) }
        return values
    }
}

/// An `Optional` seen through `Any`.
protocol AnyOptional {
    var wrappedAny: Any? { get }
}

extension Optional: AnyOptional {
    var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): wrapped
        case .none: nil
        }
    }
}
