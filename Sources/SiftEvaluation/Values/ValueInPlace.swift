/// Reading a ``Value``'s dictionary or collection where it lies, without copying it out: a copy
/// (`case .array(let elements)`) retains and releases its storage, which on records that do not
/// fit in cache is as costly as the test itself. Used by the compiled plan (``KeyedPlan``) on
/// the evaluated object and on a key's value.
///
/// It relies on how Swift lays `Value` out: its largest payload (`Decimal`) has no spare bits,
/// so the case is kept after the payload and a single-reference payload — a dictionary's
/// storage, an array's buffer — is the value's first word, as it is. That is checked once per
/// process on values made for the purpose; should a compiler lay `Value` out otherwise, the
/// checks fail and callers copy the payload out as before.
enum ValueInPlace {
    /// The view of the dictionary at `address` (valid while the value there lives); nil when the
    /// value is not a dictionary, or when the layout is not the one expected.
    @inline(__always)
    static func dictionary(at address: UnsafePointer<Value>) -> BorrowedDictionary? {
        guard case .dictionary = address.pointee, dictionaryIsFirstWord else { return nil }
        let bits = UnsafeRawPointer(address).load(as: UnsafeRawPointer.self)
        return Unmanaged<DictionaryStorage>.fromOpaque(bits)._withUnsafeGuaranteedRef { BorrowedDictionary($0) }
    }

    /// `body` on the elements of the array or set at `address`, read in place; nil when the
    /// value there is neither, or when the layout is not the one expected.
    @inline(__always)
    static func withElements<R>(at address: UnsafePointer<Value>, _ body: (UnsafeBufferPointer<Value>) throws(EvaluationError) -> R) throws(EvaluationError) -> R? {
        switch address.pointee {
        case .array, .set:
            guard arrayIsFirstWord else { return nil }
            return try UnsafeRawPointer(address).withMemoryRebound(to: [Value].self, capacity: 1) { (elements: UnsafePointer<[Value]>) throws(EvaluationError) -> R in
                try elements.pointee.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<Value>) throws(EvaluationError) -> R in try body(buffer) }
            }
        default:
            return nil
        }
    }

    /// Whether a `.dictionary` value's first word is its storage's address.
    static let dictionaryIsFirstWord: Bool = {
        let dictionary = ValueDictionary([("k", .int(1))])
        let value = Value.dictionary(dictionary)
        let bits = withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: UInt.self) }
        return withExtendedLifetime(value) { bits == UInt(bitPattern: ObjectIdentifier(dictionary.storageReference)) }
    }()

    /// Whether an `.array` or `.set` value's first word is its `[Value]`'s.
    static let arrayIsFirstWord: Bool = {
        let elements: [Value] = [.int(1), .string("x")]
        let values: [Value] = [.array(elements), .set(elements)]
        let expected = withUnsafeBytes(of: elements) { $0.load(as: UInt.self) }
        return withExtendedLifetime(elements) {
            values.allSatisfy { value in withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: UInt.self) } == expected }
        }
    }()
}
