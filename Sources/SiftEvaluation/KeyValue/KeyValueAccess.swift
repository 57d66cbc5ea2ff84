import Foundation
import SiftLanguage

/// Reading keys and key paths from values (key-value coding, LANGUAGE.md §5).
///
/// - A dictionary gives the key's value, or nil when it has no such key (schemaless data).
/// - An object answers for itself (records throw for keys their entity does not have).
/// - A collection maps the key over its elements: `tags.name` is the names, one per element,
///   nil included where an element has none; collections met on the way are flattened, so a
///   path across several to-many steps is one collection.
/// - Anything else (nil, a number, a string) has no keys: nil.
/// - `@count`, `@sum`, `@avg`, `@min`, `@max`, `@distinctUnionOfObjects`, `@unionOfObjects`
///   apply to the collection reached so far, with the rest of the path read from each element.
enum KeyValueAccess {
    static func value(of base: Value, forKey key: String) throws(EvaluationError) -> Value {
        try value(of: base, forKey: PreparedKey(key))
    }

    static func value(of base: Value, forKey key: PreparedKey) throws(EvaluationError) -> Value {
        switch base {
        case .dictionary(let dictionary):
            guard let position = dictionary.position(of: key) else { return .null }
            return dictionary.value(at: position)
        case .object(let object): return try object.value(for: key)
        case .array(let elements), .set(let elements):
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                let value = try value(of: element, forKey: key)
                // A to-many of a to-many (or an array attribute) flattens into one collection.
                if let inner = value.collectionElements { values.append(contentsOf: inner) } else { values.append(value) }
            }
            if case .set = base { return .set(values) }
            return .array(values)
        default: return .null
        }
    }

    /// Follows `keys` from `base`.
    static func value(of base: Value, keyPath keys: ArraySlice<PreparedKey>) throws(EvaluationError) -> Value {
        var current = base
        var index = keys.startIndex
        while index < keys.endIndex {
            let key = keys[index]
            if key.name.hasPrefix("@"), let op = CollectionOperator(rawValue: key.name) {
                return try op.apply(to: current, rest: keys[(index + 1)...])
            }
            current = try value(of: current, forKey: key)
            index += 1
        }
        return current
    }
}

/// The collection operators of key-value coding, applied.
extension CollectionOperator {
    func apply(to collection: Value, rest: ArraySlice<PreparedKey>) throws(EvaluationError) -> Value {
        let elements: [Value]
        switch collection {
        case .array(let e), .set(let e): elements = e
        case .dictionary(let d): elements = d.values
        case .null: elements = []
        default: elements = [collection]
        }
        if self == .count { return .int(Int64(elements.count)) }
        var values: [Value] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            let value = rest.isEmpty ? element : try KeyValueAccess.value(of: element, keyPath: rest)
            values.append(value)
        }
        switch self {
        case .count: return .int(Int64(elements.count))
        case .sum: return Aggregates.sum(values)
        case .avg: return Aggregates.average(values)
        case .min: return Aggregates.extreme(values, wantMax: false)
        case .max: return Aggregates.extreme(values, wantMax: true)
        case .unionOfObjects: return .array(values.filter { !$0.isNull })
        case .distinctUnionOfObjects: return .array(try Aggregates.distinct(values.filter { !$0.isNull }))
        }
    }
}

/// Aggregates over collections, skipping nil values (as SQL aggregates do).
package enum Aggregates {
    /// The sum: 0 for an empty collection; an integer while every value is one (and it does not
    /// overflow), else a double (a decimal if any value is one).
    package static func sum(_ values: [Value]) -> Value {
        var accumulator = SumAccumulator()
        for value in values { accumulator.add(value) }
        return accumulator.sum
    }

    /// The mean as a double (a decimal if any value is one); nil for an empty collection.
    package static func average(_ values: [Value]) -> Value {
        var count = 0
        for value in values where Arithmetic.number(value) != nil { count += 1 }
        return average(sum: sum(values), count: count)
    }

    /// The mean of `count` numbers whose ``sum(_:)`` is `sum`; nil when there are none.
    package static func average(sum: Value, count: Int) -> Value {
        guard count > 0 else { return .null }
        switch sum {
        case .int(let i): return .double(Double(i) / Double(count))
        case .double(let d): return .double(d / Double(count))
        case .decimal(let d): return .decimal(d / Decimal(count))
        default: return .null
        }
    }

    /// The least or greatest non-nil value (the first of equals); nil for an empty collection.
    package static func extreme(_ values: [Value], wantMax: Bool) -> Value {
        var best: Value?
        for value in values where !value.isNull {
            guard let current = best else { best = value; continue }
            if let order = ValueComparison.order(value, current), wantMax ? order > 0 : order < 0 { best = value }
        }
        return best ?? .null
    }

    /// Values without repeats (language equality), in first-seen order.
    /// Linear: equal values are found through ``ValueEqualityIndex``.
    /// Stops when the fetch it works for is interrupted (``EvaluationBudget``).
    static func distinct(_ values: [Value]) throws(EvaluationError) -> [Value] {
        var index = ValueEqualityIndex()
        for (offset, value) in values.enumerated() {
            if offset & (EvaluationBudget.checkInterval - 1) == 0 { try EvaluationBudget.checkInterruption() }
            _ = index.insert(value)
        }
        return index.values
    }
}
