import Synchronization

/// Where a key compiled into a predicate was last found in a dictionary, by the dictionary's
/// shape: records of one shape (``DictionaryShape``) have the key at the same position, so it is
/// found once and then read directly, with no comparison of keys.
///
/// One atomic word holds the shape's identity (high 48 bits) and the position (low 16 bits;
/// all ones when the shape does not have the key), so threads evaluating one predicate read and
/// replace it without a lock and never see one shape's identity with another's position. A
/// shape's identity is never reused, and renewed when its keys change, so a remembered position
/// is never applied to different keys. Records of different shapes alternating only cost a
/// search each time.
final class KeySlotCache: Sendable {
    private let entry = Atomic<UInt64>(0)

    /// The position code for "the shape does not have the key".
    private static let absent: UInt64 = 0xFFFF

    init() {}

    /// The position remembered for the shape of identity `identity`; nil when none is, or when
    /// the shape does not have the key (``knowsAbsence(in:)``).
    @inline(__always)
    func knownPosition(in identity: UInt64) -> Int? {
        let known = entry.load(ordering: .relaxed)
        guard known >> 16 == identity, known & 0xFFFF != Self.absent else { return nil }
        return Int(truncatingIfNeeded: known & 0xFFFF)
    }

    /// Whether the shape of identity `identity` is remembered not to have the key.
    @inline(__always)
    func knowsAbsence(in identity: UInt64) -> Bool {
        entry.load(ordering: .relaxed) == identity << 16 | Self.absent && identity < 1 << 48
    }

    /// Where `key` is in `shape`'s keys.
    @inline(__always)
    func position(of key: PreparedKey, in shape: DictionaryShape) -> Int? {
        let identity = shape.identity
        let known = entry.load(ordering: .relaxed)
        if known >> 16 == identity {
            let code = known & 0xFFFF
            return code == Self.absent ? nil : Int(truncatingIfNeeded: code)
        }
        return find(key, in: shape, identity: identity)
    }

    @inline(never)
    private func find(_ key: PreparedKey, in shape: DictionaryShape, identity: UInt64) -> Int? {
        let position = shape.position(of: key)
        let code = position.map { UInt64($0) } ?? Self.absent
        // Identities past 48 bits, and positions past 16, are not remembered.
        if identity < 1 << 48, code <= Self.absent, position.map({ $0 < 0xFFFF }) ?? true {
            entry.store(identity << 16 | code, ordering: .relaxed)
        }
        return position
    }
}
