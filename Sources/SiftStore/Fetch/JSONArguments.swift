import Foundation
import SiftEvaluation
import SiftLanguage

/// Format arguments and variables written as JSON (the CLI's `--arg`, a JSON fetch request's
/// `"arguments"`): `null`, booleans, numbers (`2` an integer, `2.0` a double), strings, arrays,
/// the typed forms `{"$date": "<ISO 8601>"}`, `{"$uuid": …}`, `{"$data": "<base64>"}`,
/// `{"$decimal": "1.5"}`, `{"$ref": "<object ID>"}` for a stored object, and dictionaries:
/// every other object (`{"a": 1}`, `{}`, `{"$date": 1, "x": 2}`), keys in their order
/// (`SELF IN %@` tests its values, `%@['a']` reads a key).
public enum JSONArguments {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The Swift value of a parsed JSON value, for `PredicateNode(format:arguments:)`: a
    /// dictionary is given as the ``ExpressionNode`` it binds to (which keeps its keys' order).
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
            // Any other object is a dictionary (the JSON parser has read the other typed forms).
            var entries: [DictionaryEntry] = []
            entries.reserveCapacity(d.count)
            for (key, element) in d.pairs {
                let value = try argument(element)
                do throws(ArgumentConversion.Failure) {
                    entries.append(DictionaryEntry(key, try ArgumentConversion.expression(from: value)))
                } catch {
                    throw Failure(description: "the key \(CanonicalPrinter.formatString(key)): \(error.description)")
                }
            }
            return ExpressionNode(.dictionary(entries))
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
