import Foundation

/// Decodes `Decodable` Swift types from values: a dictionary's keys are the type's coding keys,
/// arrays and sets decode as arrays, and `Date`, `Data`, `UUID` and `Decimal` properties take
/// the values of those kinds as they are (no text formats to configure).
///
///     struct Movie: Decodable { var title: String; var year: Int; var rating: Double? }
///     let movie = try ValueDecoder().decode(Movie.self, from: ["title": "Arrival", "year": 2016])
///
/// Numbers convert when no precision is lost (an integer into a `Double`, `2.0` into an `Int`);
/// anything else of the wrong kind is a `DecodingError.typeMismatch` naming the coding path.
public struct ValueDecoder: Sendable {
    public init() {}

    /// Decodes a `T` from `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        try ValueDecoding(value: value, codingPath: []).decodeValue(type)
    }
}

/// The decoder at one value.
private struct ValueDecoding: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let dictionary) = value else {
            throw mismatch([String: Any].self, "expected a dictionary, found \(value.kindName)")
        }
        return KeyedDecodingContainer(KeyedValues<Key>(dictionary: dictionary, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let elements = value.collectionElements else {
            throw mismatch([Any].self, "expected an array, found \(value.kindName)")
        }
        return UnkeyedValues(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValue(decoder: self) }

    func mismatch(_ type: Any.Type, _ description: String) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    /// A `T` from this value: the kinds Foundation types hold are taken as they are.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch value {
        case .date(let d): if let result = d as? T { return result }
        case .data(let d): if let result = d as? T { return result }
        case .uuid(let u): if let result = u as? T { return result }
        case .decimal(let d): if let result = d as? T { return result }
        case .int(let i): if T.self == Decimal.self, let result = Decimal(i) as? T { return result }
        case .string(let s):
            if T.self == UUID.self {
                guard let uuid = UUID(uuidString: s), let result = uuid as? T else { throw mismatch(UUID.self, "'\(s)' is not a UUID") }
                return result
            }
            if T.self == URL.self {
                guard let url = URL(string: s), let result = url as? T else { throw mismatch(URL.self, "'\(s)' is not a URL") }
                return result
            }
        default: break
        }
        return try T(from: self)
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .int(let i): if let result = T(exactly: i) { return result }
        case .double(let d): if let result = T(exactly: d) { return result }
        default: break
        }
        throw mismatch(type, "expected \(type), found \(value.kindName) \(value)")
    }

    func floatingPoint<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
        guard let d = value.double else { throw mismatch(type, "expected a number, found \(value.kindName)") }
        return T(d)
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let decoder: ValueDecoding
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool {
        guard let b = decoder.value.bool else { throw decoder.mismatch(type, "expected a boolean, found \(decoder.value.kindName)") }
        return b
    }
    func decode(_ type: String.Type) throws -> String {
        guard let s = decoder.value.string else { throw decoder.mismatch(type, "expected a string, found \(decoder.value.kindName)") }
        return s
    }
    func decode(_ type: Double.Type) throws -> Double { try decoder.floatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.floatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

private struct KeyedValues<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let dictionary: ValueDictionary
    let codingPath: [any CodingKey]

    var allKeys: [Key] { dictionary.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { dictionary[key.stringValue] != nil }

    private func decoder(for key: Key) throws -> ValueDecoding {
        guard let value = dictionary[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no key '\(key.stringValue)'"))
        }
        return ValueDecoding(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { dictionary[key.stringValue]?.isNull ?? true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder(for: key).decodeValue(type)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(for: key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { ValueDecoding(value: .dictionary(dictionary), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }
}

private struct UnkeyedValues: UnkeyedDecodingContainer {
    let elements: [Value]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [Value], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> ValueDecoding {
        let key = IndexKey(index: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Value.self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "past the end of the array"))
        }
        defer { currentIndex += 1 }
        return ValueDecoding(value: elements[currentIndex], codingPath: codingPath + [key])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

/// An array position in a coding path.
private struct IndexKey: CodingKey {
    let index: Int
    init(index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}
