import SiftEvaluation

/// The attribute names of an entity's fetched objects, in the entity's order: one instance
/// shared by every object a fetch reads of that entity, so an object holds only its values.
@usableFromInline
package final class AttributeNames: Sendable {
    @usableFromInline package let names: [String]
    /// An index for entities with many attributes (a few are searched linearly, which is faster).
    @usableFromInline let index: [String: Int]?
    /// The names' representations: a key with the same bits is the same name, found without
    /// comparing strings (small names are stored inline, so equal small names have equal bits).
    /// (Empty when a String is not two words.)
    @usableFromInline let bits: [PreparedKey.Bits]

    package init(_ names: [String]) {
        self.names = names
        let bits = names.compactMap(PreparedKey.bits(of:))
        self.bits = bits.count == names.count ? bits : []
        if names.count > 12 {
            var index: [String: Int] = [:]
            for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
            self.index = index
        } else {
            self.index = nil
        }
    }

    /// Where `name` is in ``names``.
    package func position(of name: String) -> Int? {
        position(named: name)
    }

    /// Where `name` is in ``names``: a name with the same representation as one of a few names
    /// is found by comparing two words a name, otherwise as ``positionBySearch(of:)`` finds it.
    /// (Internal and inlinable, not `package`, so that ``ManagedObject``'s public attribute
    /// subscript can be inlined into a library user's code with it: Swift 6.3 inlines no
    /// `@inlinable package` function across modules.)
    @inlinable @inline(__always)
    func position(named name: String) -> Int? {
        if index == nil, MemoryLayout<String>.size == 16 {
            let (low, high) = withUnsafeBytes(of: name) { (raw: UnsafeRawBufferPointer) in
                (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            for position in bits.indices where bits[position].low == low && bits[position].high == high { return position }
        }
        return positionBySearch(of: name)
    }

    /// Where `name` is in ``names``, by the index or by comparing names.
    @usableFromInline
    func positionBySearch(of name: String) -> Int? {
        if let index { return index[name] }
        return names.firstIndex(of: name)
    }

    /// Where `name` is in ``names``, trying `hint` first: a name whose representation is
    /// `bits` (``PreparedKey``'s, worked out once by the caller) at `hint` is found with one
    /// comparison of two words; otherwise as ``position(of:)`` finds it. (Inlinable: a row
    /// reader asks it for every attribute of every row.)
    @inlinable
    package func position(of name: String, bits key: PreparedKey.Bits?, hint: Int) -> Int? {
        if let key {
            // (Fields compared, not `==`: Bits' conformance is another module's, not inlined.)
            if hint >= 0, hint < bits.count, bits[hint].low == key.low, bits[hint].high == key.high { return hint }
            if index == nil {
                for position in bits.indices where bits[position].low == key.low && bits[position].high == key.high { return position }
            }
        }
        if let index { return index[name] }
        return names.firstIndex(of: name)
    }
}
