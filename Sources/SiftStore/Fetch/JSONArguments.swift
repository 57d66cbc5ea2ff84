import Foundation
import SiftEvaluation
import SiftLanguage

/// Format arguments and variables written as JSON (the CLI's `--arg`, a JSON fetch request's
/// `"arguments"`): `null`, booleans, numbers (`2` an integer, `2.0` a double), strings, arrays,
/// the typed forms `{"$date": "<ISO 8601>"}`, `{"$uuid": …}`, `{"$data": "<base64>"}`,
/// `{"$decimal": "1.5"}`, and `{"$ref": "<object ID>"}` for a stored object.
public enum JSONArguments {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The Swift value of a parsed JSON value, for `PredicateNode(format:arguments:)`.
    public static func argument(_ value: Value) throws(Failure) -> Any? {
        switch value {
        case .null: return nil
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .decimal(let d): return d
        case .string(let s): return s
        case .date(let d): return d
        case .data(let d): return d
        case .uuid(let u): return u
        case .array(let elements), .set(let elements):
            var array: [Any?] = []
            array.reserveCapacity(elements.count)
            for element in elements { array.append(try argument(element)) }
            return array
        case .dictionary(let d):
            if d.count == 1, d.keys.first == "$ref", case .string(let id)? = d["$ref"] { return ObjectID(id) }
            throw Failure(description: "a JSON object is not a value here (typed values are {\"$date\": ...}, {\"$uuid\": ...}, {\"$data\": ...}, {\"$decimal\": ...}, {\"$ref\": \"<object ID>\"})")
        case .object(let o):
            if let reference = o as? ObjectReference { return reference.id }
            return String(describing: o.objectIdentity.base)
        }
    }

    /// Parses JSON text into an argument value.
    public static func argument(json text: String) throws -> Any? {
        try argument(try JSONParser.parse(text))
    }
}
