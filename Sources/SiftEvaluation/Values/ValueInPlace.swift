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
    /// value is not a dictionary, or when `layoutIsKnown` (``dictionaryIsFirstWord``, read once
    /// by the caller: reading the static is a call, `swift_once`, on every pass) is false.
    @inline(__always)
    static func dictionary(at address: UnsafePointer<Value>, layoutIsKnown: Bool) -> BorrowedDictionary? {
        guard layoutIsKnown, case .dictionary = address.pointee else { return nil }
        let bits = UnsafeRawPointer(address).load(as: UnsafeRawPointer.self)
        return Unmanaged<DictionaryStorage>.fromOpaque(bits)._withUnsafeGuaranteedRef { BorrowedDictionary($0) }
    }

    /// `body` on the elements of the array or set at `address`, read in place; nil when the
    /// value there is neither, or when `layoutIsKnown` (``arrayStorageIsKnown``, read once by
    /// the caller) is false.
    ///
    /// The elements are found from the array's storage word, not through
    /// `Array.withUnsafeBufferPointer`, which retains and releases the storage on every call.
    @inline(__always)
    static func withElements<R>(at address: UnsafePointer<Value>, layoutIsKnown: Bool,
                                _ body: (UnsafeBufferPointer<Value>) throws(EvaluationError) -> R) throws(EvaluationError) -> R? {
        switch address.pointee {
        case .array, .set:
            guard layoutIsKnown else { return nil }
            return try body(elements(ofArrayStorage: UnsafeRawPointer(address).load(as: UnsafeRawPointer.self)))
        default:
            return nil
        }
    }

    /// The elements of the `[Value]` whose storage starts at `storage`: its count at
    /// ``arrayCountOffset``, its elements from ``arrayElementsOffset``.
    @inline(__always)
    private static func elements(ofArrayStorage storage: UnsafeRawPointer) -> UnsafeBufferPointer<Value> {
        let count = storage.load(fromByteOffset: arrayCountOffset, as: Int.self)
        return UnsafeBufferPointer(start: (storage + arrayElementsOffset).assumingMemoryBound(to: Value.self), count: count)
    }

    /// Where an array's storage keeps its count (after the object header) and its elements
    /// (after the count and the capacity): checked by ``arrayStorageIsKnown``.
    private static let arrayCountOffset = 16
    private static let arrayElementsOffset = 32

    /// Whether a `.dictionary` value's first word is its storage's address.
    static let dictionaryIsFirstWord: Bool = {
        let dictionary = ValueDictionary([("k", .int(1))])
        let value = Value.dictionary(dictionary)
        let bits = withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: UInt.self) }
        return withExtendedLifetime(value) { bits == UInt(bitPattern: ObjectIdentifier(dictionary.storageReference)) }
    }()

    /// Whether an `.array` or `.set` value's first word is its `[Value]`'s storage, and that
    /// storage keeps the count and the elements where ``withElements(at:layoutIsKnown:_:)``
    /// reads them (checked on arrays of several lengths, the empty one included).
    static let arrayStorageIsKnown: Bool = {
        let arrays: [[Value]] = [[], [.int(1)], [.int(1), .string("x")], (0..<9).map { .int(Int64($0)) }]
        return arrays.allSatisfy { elements in
            let values: [Value] = [.array(elements), .set(elements)]
            let storage = withUnsafeBytes(of: elements) { $0.load(as: UInt.self) }
            return withExtendedLifetime(elements) {
                values.allSatisfy { value in withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: UInt.self) } == storage }
                    && elements.withUnsafeBufferPointer { buffer in
                        let found = Self.elements(ofArrayStorage: UnsafeRawPointer(bitPattern: storage)!)
                        return found.count == buffer.count && (buffer.isEmpty || found.baseAddress == buffer.baseAddress)
                    }
            }
        }
    }()
}
