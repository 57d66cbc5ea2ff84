import Foundation
import SiftLanguage

/// The functions of ``FunctionCatalog`` (LANGUAGE.md §6), by full selector. A nil argument
/// gives nil, except for the aggregate functions, which skip nils in their collection.
///
/// The SQLite store calls these same implementations from SQL (`sift_call`), hence `package`.
package enum Functions {
    package typealias Implementation = @Sendable ([Value]) throws(EvaluationError) -> Value

    /// The implementation of `function`; `expression` names the call in its errors.
    /// Resolved once, when a predicate is compiled: the closure does no dispatch of its own.
    package static func implementation(_ function: BuiltinFunction, expression: String) -> Implementation {
        let selector = function.selector
        func numeric(_ f: @escaping @Sendable (Double) -> Double, keepInt: (@Sendable (Int64) -> Value)? = nil) -> Implementation {
            { (args) throws(EvaluationError) in
                if args[0].isNull { return .null }
                guard let n = Arithmetic.number(args[0]) else { throw Arithmetic.mismatch(selector, args[0], in: expression) }
                if case .int(let i) = n, let keepInt { return keepInt(i) }
                return .double(f(n.doubleValue))
            }
        }
        func binary(_ op: BinaryOperator) -> Implementation {
            { (args) throws(EvaluationError) in try Arithmetic.binary(op, args[0], args[1], expression: expression) }
        }
        func text(_ f: @escaping @Sendable (String) -> String) -> Implementation {
            { (args) throws(EvaluationError) in
                switch args[0] {
                case .null: return .null
                case .string(let s): return .string(f(s))
                default: throw Arithmetic.mismatch(selector, args[0], in: expression)
                }
            }
        }
        switch function {
        case .sum: return { args in Aggregates.sum(elements(args[0])) }
        case .count: return { args in .int(Int64(elements(args[0]).count)) }
        case .min: return { args in Aggregates.extreme(elements(args[0]), wantMax: false) }
        case .max: return { args in Aggregates.extreme(elements(args[0]), wantMax: true) }
        case .average: return { args in Aggregates.average(elements(args[0])) }
        case .median: return { args in median(elements(args[0])) }
        case .mode: return { (args) throws(EvaluationError) in try mode(elements(args[0])) }
        case .stddev: return { args in standardDeviation(elements(args[0])) }
        case .add: return binary(.add)
        case .subtract: return binary(.subtract)
        case .multiply: return binary(.multiply)
        case .divide: return binary(.divide)
        case .modulus: return { (args) throws(EvaluationError) in try Arithmetic.modulus(args[0], args[1], expression: expression) }
        case .raise: return binary(.power)
        case .sqrt: return numeric({ $0.squareRoot() })
        case .log: return numeric(log10)
        case .ln: return numeric(Foundation.log)
        case .exp: return numeric(Foundation.exp)
        case .floor: return numeric({ $0.rounded(.down) }, keepInt: { .int($0) })
        case .ceiling: return numeric({ $0.rounded(.up) }, keepInt: { .int($0) })
        case .trunc: return numeric({ $0.rounded(.towardZero) }, keepInt: { .int($0) })
        case .abs: return numeric({ Swift.abs($0) }, keepInt: { $0 == .min ? .double(-Double($0)) : .int(Swift.abs($0)) })  // overflow gives a double
        case .uppercase: return text { $0.uppercased() }
        case .lowercase: return text { $0.lowercased() }
        case .canonical: return text { StringFolding.fold($0, options: [.caseInsensitive, .diacriticInsensitive]) }
        case .now: return { _ in .date(Date()) }
        case .random: return { _ in .double(Double.random(in: 0..<1)) }
        case .randomBelow:
            return { (args) throws(EvaluationError) in
                if args[0].isNull { return .null }
                guard case .int(let n)? = Arithmetic.number(args[0]) else { throw Arithmetic.mismatch(selector, args[0], in: expression) }
                return n > 0 ? .int(Int64.random(in: 0..<n)) : .null
            }
        case .bitwiseAnd: return binary(.bitwiseAnd)
        case .bitwiseOr: return binary(.bitwiseOr)
        case .bitwiseXor: return binary(.bitwiseXor)
        case .leftShift: return binary(.leftShift)
        case .rightShift: return binary(.rightShift)
        case .onesComplement: return { (args) throws(EvaluationError) in try Arithmetic.unary(.bitwiseNot, args[0], expression: expression) }
        case .noindex: return { args in args[0] }
        }
    }

    /// A collection argument's elements (a single value is a collection of one; nil is empty).
    static func elements(_ value: Value) -> [Value] {
        switch value {
        case .array(let e), .set(let e): e
        case .dictionary(let d): d.values
        case .null: []
        default: [value]
        }
    }

    static func numbers(_ values: [Value]) -> [Double] {
        values.compactMap { Arithmetic.number($0)?.doubleValue }
    }

    /// The middle value (the mean of the middle two for an even count); nil when empty.
    package static func median(_ values: [Value]) -> Value {
        let sorted = numbers(values).sorted()
        guard !sorted.isEmpty else { return .null }
        let middle = sorted.count / 2
        return .double(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
    }

    /// The most frequent non-nil value, the first such in collection order; nil when empty.
    /// Linear: equal values are found through ``ValueEqualityIndex``.
    /// Stops when the fetch it works for is interrupted (``EvaluationBudget``).
    package static func mode(_ values: [Value]) throws(EvaluationError) -> Value {
        var index = ValueEqualityIndex()
        var counts: [Int] = []
        for (offset, value) in values.enumerated() where !value.isNull {
            if offset & (EvaluationBudget.checkInterval - 1) == 0 { try EvaluationBudget.checkInterruption() }
            let (position, inserted) = index.insert(value)
            if inserted { counts.append(1) } else { counts[position] += 1 }
        }
        var best: Int?
        for position in counts.indices where counts[position] > (best.map { counts[$0] } ?? 0) { best = position }
        return best.map { index.values[$0] } ?? .null
    }

    /// The population standard deviation; nil when empty.
    package static func standardDeviation(_ values: [Value]) -> Value {
        let xs = numbers(values)
        guard !xs.isEmpty else { return .null }
        let mean = xs.reduce(0, +) / Double(xs.count)
        let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
        return .double(variance.squareRoot())
    }
}

/// `CAST(value, 'Type')` (also called from SQL by the SQLite store's `sift_cast`).
package enum Cast {
    /// `value` converted to `castType` (the type name resolved once, where the cast is
    /// compiled).
    package static func convert(_ value: Value, to castType: CastType, expression: String) throws(EvaluationError) -> Value {
        if value.isNull { return .null }
        func fail() -> EvaluationError {
            EvaluationError(.invalidCast, "CAST cannot convert \(value.kindName) \(ValueText.describe(value)) to \(castType.name) in '\(expression)'", keyPath: expression)
        }
        switch castType {
        case .number:
            switch value {
            case .int, .double, .decimal: return value
            case .bool(let b): return .int(b ? 1 : 0)
            case .date(let d): return .double(d.timeIntervalSinceReferenceDate)
            case .string(let s):
                let text = s.trimmingCharacters(in: .whitespaces)
                if let i = Int64(text) { return .int(i) }
                if let d = Double(text), d.isFinite || text.lowercased().contains("inf") { return .double(d) }
                throw fail()
            default: throw fail()
            }
        case .string:
            switch value {
            case .string: return value
            default: return .string(ValueText.text(value))
            }
        case .date:
            switch value {
            case .date: return value
            case .string(let s):
                guard let d = ISO8601.date(from: s) else { throw fail() }
                return .date(d)
            default:
                guard let n = Arithmetic.number(value) else { throw fail() }
                return .date(Date(timeIntervalSinceReferenceDate: n.doubleValue))
            }
        case .decimalNumber:
            switch value {
            case .string(let s):
                guard let d = Decimal(string: s, locale: nil) else { throw fail() }
                return .decimal(d)
            default:
                guard let n = Arithmetic.number(value) else { throw fail() }
                return .decimal(n.decimalValue)
            }
        case .data:
            switch value {
            case .data: return value
            case .string(let s):
                guard let d = Data(base64Encoded: s) else { throw fail() }
                return .data(d)
            default: throw fail()
            }
        case .uuid:
            switch value {
            case .uuid: return value
            case .string(let s):
                guard let u = UUID(uuidString: s) else { throw fail() }
                return .uuid(u)
            default: throw fail()
            }
        case .managedObjectID:
            switch value {
            case .object: return value
            case .string(let s): return .object(ObjectReference(ObjectID(s)))
            default: throw fail()
            }
        }
    }
}
