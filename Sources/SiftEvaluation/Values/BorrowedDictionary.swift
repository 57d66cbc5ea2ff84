/// A dictionary read in place, without a reference of its own: the header and values of a
/// `.dictionary` ``Value``'s storage, valid only while that value lives (the evaluated object,
/// which its caller holds for the whole evaluation).
///
/// Why: taking the dictionary out of the `Value` with `case .dictionary(let d)` copies it, a
/// retain and a release of the record's storage per evaluation — the largest cost of a compiled
/// `age > 30` over records that do not fit in cache, where that atomic write is also the first
/// touch of the record. The view is made from the value's own bits instead
/// (``ValueInPlace``), checked once per process against the layout the compiler chose.
struct BorrowedDictionary {
    let head: UnsafeMutablePointer<DictionaryStorageHeader>
    let elements: UnsafeMutablePointer<Value>

    init(_ storage: DictionaryStorage) {
        head = storage.head
        elements = storage.elements
    }

    /// Where `key` is, remembered per shape in `cache` (``ValueDictionary/position(of:cache:)``'s
    /// answer).
    @inline(__always)
    func position(of key: PreparedKey, cache: KeySlotCache) -> Int? {
        let identity = head.pointee.shapeIdentity
        if let position = cache.knownPosition(in: identity) {
            if position < head.pointee.count { return position }
        } else if cache.knowsAbsence(in: identity) {
            return nil
        }
        return cache.position(of: key, in: head.pointee.shape)
    }
}

extension BorrowedDictionary: KeyedRoot {
    /// A missing key is nil, as the closure tree reads it.
    @inline(__always)
    func satisfies(_ comparison: KeyComparison) throws(EvaluationError) -> Bool {
        guard let position = position(of: comparison.key, cache: comparison.slots) else { return try comparison.evaluate(value: .null) }
        return try comparison.evaluate(valueAt: UnsafePointer(elements + position))
    }
}
