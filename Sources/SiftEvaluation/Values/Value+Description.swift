/// Values print as JSON (``JSONWriter``'s text, with its typed forms such as
/// `{"$date": "2021-03-04T05:06:07Z"}`): `print(result)` shows `{"title":"x","year":2016}`.
///
/// A Swift value that lists its keys (``PredicateQueryable``) prints as a dictionary of them;
/// other objects (records) as `{"$ref": "<identity>"}`.
extension Value: CustomStringConvertible {
    public var description: String { JSONWriter.string(Self.printable(self, depth: 0)) }

    /// Nested objects deeper than this print as references (a computed key may return its own
    /// object).
    private static let maximumPrintedDepth = 16

    /// `value` with every queryable Swift value replaced by the dictionary of its keys.
    private static func printable(_ value: Value, depth: Int) -> Value {
        guard depth < maximumPrintedDepth else { return value }
        switch value {
        case .object(let object):
            guard let keyed = object as? any KeyedObjectPrinting else { return value }
            return printable(.dictionary(keyed.printedKeys), depth: depth + 1)
        case .array(let elements): return .array(elements.map { printable($0, depth: depth + 1) })
        case .set(let elements): return .set(elements.map { printable($0, depth: depth + 1) })
        case .dictionary(let dictionary):
            return .dictionary(ValueDictionary(dictionary.pairs.map { ($0.0, printable($0.1, depth: depth + 1)) }))
        default: return value
        }
    }
}

extension ValueDictionary: CustomStringConvertible {
    /// The dictionary as a JSON object, keys in order: `{"title":"x","year":2016}`.
    public var description: String { Value.dictionary(self).description }
}

/// An object that prints as the dictionary of its keys (a ``PredicateQueryable`` value).
protocol KeyedObjectPrinting {
    var printedKeys: ValueDictionary { get }
}
