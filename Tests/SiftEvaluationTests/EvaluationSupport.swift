import Foundation
import Testing
@testable import SiftEvaluation
import SiftLanguage

/// A Value from a Swift literal: nil, Bool, Int, Double, String, Date, arrays, [String: Any].
func val(_ any: Any?) -> Value {
    switch any {
    case nil: return .null
    case let v as Value: return v
    case let b as Bool: return .bool(b)
    case let i as Int: return .int(Int64(i))
    case let d as Double: return .double(d)
    case let s as String: return .string(s)
    case let d as Date: return .date(d)
    case let d as Decimal: return .decimal(d)
    case let a as [Any?]: return .array(a.map(val))
    case let a as [Any]: return .array(a.map { val($0) })
    case let d as KeyValuePairs<String, Any?>: return .dictionary(ValueDictionary(d.map { ($0.key, val($0.value)) }))
    case let d as [String: Any?]: return .dictionary(ValueDictionary(d.sorted { $0.key < $1.key }.map { ($0.key, val($0.value)) }))
    case let d as [String: Any]: return .dictionary(ValueDictionary(d.sorted { $0.key < $1.key }.map { ($0.key, val($0.value)) }))
    default: fatalError("test value \(String(describing: any))")
    }
}

/// Evaluates, recording a failure for errors.
func holds(_ format: String, on object: Value, _ arguments: Any?..., sourceLocation: SourceLocation = #_sourceLocation) -> Bool? {
    do {
        return try CompiledPredicate(format: format, arguments: arguments).evaluate(object)
    } catch {
        Issue.record("\(format): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
