import Foundation

/// Writes a binary property list (`bplist00`) with real UIDs, for tests that build keyed archives
/// by hand. Foundation on Linux writes `{"CF$UID": n}` as a plain dictionary, so a dictionary
/// with the single key `CF$UID` is written here as the UID `n`. Values: `String`, `Int`, `Bool`,
/// `Double`, `Data`, `[Any]`, `[String: Any]`. Every value is written anew (no sharing).
enum UIDPropertyListWriter {
    static func data(_ top: Any) -> Data {
        var objects: [[UInt8]] = []
        let topIndex = add(top, &objects)
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += be(UInt64(offset), 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4] + be(UInt64(objects.count), 8) + be(UInt64(topIndex), 8) + be(UInt64(table), 8)
        return Data(bytes)
    }

    private static func be(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(value >> UInt64(8 * (size - 1 - $0)) & 0xFF) }
    }

    private static func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F, 0x13] + be(UInt64(count), 8)
    }

    private static func add(_ value: Any, _ objects: inout [[UInt8]]) -> Int {
        let bytes: [UInt8]
        switch value {
        case let string as String:
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                bytes = header(0x5, string.utf8.count) + Array(string.utf8)
            } else {
                let units = Array(string.utf16)
                bytes = header(0x6, units.count) + units.flatMap { be(UInt64($0), 2) }
            }
        case let bool as Bool:
            bytes = [bool ? 0x09 : 0x08]
        case let int as Int:
            bytes = [0x13] + be(UInt64(bitPattern: Int64(int)), 8)
        case let double as Double:
            bytes = [0x23] + be(double.bitPattern, 8)
        case let data as Data:
            bytes = header(0x4, data.count) + Array(data)
        case let array as [Any]:
            let members = array.map { add($0, &objects) }
            bytes = header(0xA, members.count) + members.flatMap { be(UInt64($0), 4) }
        case let dictionary as [String: Any]:
            if dictionary.count == 1, let uid = dictionary["CF$UID"] as? Int {
                bytes = [0x83] + be(UInt64(uid), 4)
            } else {
                let keys = dictionary.keys.sorted()
                let keyIndexes = keys.map { add($0, &objects) }
                let valueIndexes = keys.map { add(dictionary[$0]!, &objects) }
                bytes = header(0xD, keys.count) + (keyIndexes + valueIndexes).flatMap { be(UInt64($0), 4) }
            }
        default:
            preconditionFailure("UIDPropertyListWriter: cannot write \(type(of: value))")
        }
        objects.append(bytes)
        return objects.count - 1
    }
}
