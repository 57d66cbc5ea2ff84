/// Swift literals as values: `"Ann"`, `30`, `4.5`, `true`, `nil`, `[1, 2]` and
/// `["title": "x", "year": 2016]` are ``Value``s, so records and arguments read like Swift.
///
///     let movie: Value = ["title": "Arrival", "year": 2016, "tags": ["sci-fi"], "rating": nil]
///     // .dictionary(["title": .string("Arrival"), "year": .int(2016), ...]), keys in order
extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `.int`.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// `.array`, elements in order.
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    /// `.dictionary`, keys in the order written (a repeated key keeps its first place and its
    /// last value).
    public init(dictionaryLiteral elements: (String, Value)...) { self = .dictionary(ValueDictionary(elements)) }
}

/// `["title": "x", "year": 2016]` as a dictionary, keys in the order written.
extension ValueDictionary: ExpressibleByDictionaryLiteral {
    /// A repeated key keeps its first place and its last value.
    public init(dictionaryLiteral elements: (String, Value)...) { self.init(elements) }
}
