import Foundation

/// Looks over a binary property list before Foundation reads it, and refuses what Foundation
/// cannot read safely.
///
/// swift-corelibs-foundation crashes the process (a null type in a dynamic cast) when a binary
/// property list holds a set: it bridges the `NSSet` to `Set<AnyHashable>`. Sift never writes
/// sets (nor does Xcode in a model bundle's `.xccurrentversion`), so a set means a damaged or
/// hostile file, and it is refused with an error before Foundation sees it.
///
/// The check reads the trailer (the last 32 bytes: the sizes of offsets and references, the
/// number of objects, the offset table's place) and the first byte of each object, whose high
/// four bits are its kind (`0xC_` a set). The work is linear in the number of objects, which
/// must fit in the file; a trailer that does not is left to Foundation, which reports it.
package enum BinaryPropertyListScreen {
    /// Why `data` (a binary property list) must not be given to Foundation, or nil.
    package static func refusal(_ data: Data) -> String? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            let count = bytes.count
            guard count >= 8 + 32, bytes.starts(with: "bplist".utf8) else { return nil }
            let trailer = count - 32
            let offsetSize = Int(bytes[trailer + 6])
            guard (1...8).contains(offsetSize) else { return nil }
            let objects = Self.integer(bytes, at: trailer + 8, size: 8)
            let table = Self.integer(bytes, at: trailer + 24, size: 8)
            // The offset table must lie between the header and the trailer.
            guard objects > 0, table >= 8, table < UInt64(trailer),
                  objects <= (UInt64(trailer) - table) / UInt64(offsetSize) else { return nil }
            for index in 0..<Int(objects) {
                let offset = Self.integer(bytes, at: Int(table) + index * offsetSize, size: offsetSize)
                guard offset >= 8, offset < UInt64(trailer) else { continue }
                if bytes[Int(offset)] >> 4 == 0xC {
                    return "it holds a set (object \(index)), which no Sift store or model holds"
                }
            }
            return nil
        }
    }

    /// The big-endian unsigned integer of `size` bytes at `offset` (within `bytes`).
    private static func integer(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }
}
