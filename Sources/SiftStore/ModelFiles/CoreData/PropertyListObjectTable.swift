import Foundation

/// The objects of a binary property list (`bplist00`) as a flat table, each container holding
/// the indexes of its members rather than the members: the form a keyed archive needs, whose
/// objects refer to each other by UID, in loops as often as not.
///
/// Reading is linear and iterative (no object is read twice, nothing recurses), and trusts
/// nothing: every offset, size, count and reference is checked against the file.
/// (``BinaryPropertyListReader`` reads a plist as a tree of ``Value``s for the binary store;
/// it has no UIDs and no sets, which keyed archives are made of.)
struct PropertyListObjectTable {
    /// The most objects one property list may hold: the fixtures' largest model cache has about
    /// 5,000; a million is far past any model and keeps the table's memory bounded.
    static let maximumObjects = 1_000_000

    enum Object: Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        /// Seconds since 2001-01-01 UTC.
        case date(Double)
        case data(Data)
        case string(String)
        case uid(Int)
        /// An array, set or ordered set: its members' object indexes.
        case array([Int])
        /// Keys' and values' object indexes, pairwise.
        case dictionary(keys: [Int], values: [Int])
    }

    private(set) var objects: [Object] = []
    /// The index of the top object.
    let top: Int

    init(_ data: Data) throws(CoreDataModelError) {
        let result: Result<(objects: [Object], top: Int), CoreDataModelError> = data.withUnsafeBytes { bytes in
            do throws(CoreDataModelError) { return .success(try Self.parse(bytes)) } catch { return .failure(error) }
        }
        let parsed = try result.get()
        objects = parsed.objects
        top = parsed.top
    }

    private static func fail(_ message: String) -> CoreDataModelError {
        CoreDataModelError("the archive is not a valid binary property list: \(message)")
    }

    private static func integer(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer) throws(CoreDataModelError) -> (objects: [Object], top: Int) {
        guard bytes.count >= 8 + 32, bytes.starts(with: "bplist00".utf8) else {
            throw CoreDataModelError("the archive is not a binary property list (no bplist00 header)")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw fail("its trailer gives sizes of \(offsetSize) and \(referenceSize) bytes for offsets and references")
        }
        let count = integer(bytes, at: trailer + 8, size: 8)
        let top = integer(bytes, at: trailer + 16, size: 8)
        let table = integer(bytes, at: trailer + 24, size: 8)
        guard table >= 8, table < UInt64(trailer), count > 0, count <= (UInt64(trailer) - table) / UInt64(offsetSize) else {
            throw fail("its trailer claims \(count) objects, more than the file holds")
        }
        guard count <= UInt64(maximumObjects) else { throw fail("it holds \(count) objects, more than \(maximumObjects)") }
        guard top < count else { throw fail("its top object is \(top), of \(count)") }
        let objectCount = Int(count), tableStart = Int(table)

        func need(_ start: Int, _ length: Int, _ index: Int) throws(CoreDataModelError) {
            guard length >= 0, start <= trailer, length <= trailer - start else {
                throw fail("object \(index) runs past the end of its objects")
            }
        }
        func reference(_ position: Int, _ index: Int) throws(CoreDataModelError) -> Int {
            let value = integer(bytes, at: position, size: referenceSize)
            guard value < count else { throw fail("object \(index) refers to object \(value), of \(count)") }
            return Int(value)
        }

        var objects: [Object] = []
        objects.reserveCapacity(objectCount)
        for index in 0..<objectCount {
            let raw = integer(bytes, at: tableStart + index * offsetSize, size: offsetSize)
            guard raw >= 8, raw < UInt64(tableStart) else { throw fail("object \(index) starts at \(raw), outside the objects") }
            let start = Int(raw)
            let marker = bytes[start]
            let kind = marker >> 4, info = Int(marker & 0x0F)
            // The length of a variable-sized object: in the marker, or an integer object after it.
            func length() throws(CoreDataModelError) -> (count: Int, body: Int) {
                if info != 0x0F { return (info, start + 1) }
                try need(start + 1, 1, index)
                let head = bytes[start + 1]
                guard head >> 4 == 1, head & 0x0F <= 3 else { throw fail("object \(index) has a bad length") }
                let size = 1 << Int(head & 0x0F)
                try need(start + 2, size, index)
                let value = integer(bytes, at: start + 2, size: size)
                guard value <= UInt64(trailer) else { throw fail("object \(index) claims \(value) members, more than the file holds") }
                return (Int(value), start + 2 + size)
            }
            switch kind {
            case 0x0:
                switch info {
                case 0x0: objects.append(.null)
                case 0x8: objects.append(.bool(false))
                case 0x9: objects.append(.bool(true))
                default: throw fail("object \(index) has the unknown marker 0x\(String(marker, radix: 16))")
                }
            case 0x1:
                guard info <= 4 else { throw fail("object \(index) is an integer of \(1 << info) bytes") }
                let size = 1 << info
                try need(start + 1, size, index)
                if size == 16 {
                    // 128 bits: only values that fit 64 bits are kept.
                    let high = integer(bytes, at: start + 1, size: 8)
                    let low = integer(bytes, at: start + 9, size: 8)
                    guard high == 0 || (high == UInt64.max && low >> 63 == 1) else { throw fail("object \(index) is an integer beyond 64 bits") }
                    objects.append(.integer(Int64(bitPattern: low)))
                } else {
                    objects.append(.integer(Int64(bitPattern: integer(bytes, at: start + 1, size: size))))
                }
            case 0x2:
                guard info == 2 || info == 3 else { throw fail("object \(index) is a real of \(1 << info) bytes") }
                try need(start + 1, 1 << info, index)
                let bits = integer(bytes, at: start + 1, size: 1 << info)
                objects.append(.real(info == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)))
            case 0x3:
                guard info == 3 else { throw fail("object \(index) is a date of the wrong size") }
                try need(start + 1, 8, index)
                objects.append(.date(Double(bitPattern: integer(bytes, at: start + 1, size: 8))))
            case 0x4:
                let (n, body) = try length()
                try need(body, n, index)
                objects.append(.data(Data(bytes[body..<body + n])))
            case 0x5, 0x7:
                let (n, body) = try length()
                try need(body, n, index)
                guard let string = String(validating: bytes[body..<body + n], as: UTF8.self) else {
                    throw fail("object \(index) is a string that is not valid text")
                }
                objects.append(.string(string))
            case 0x6:
                let (n, body) = try length()
                try need(body, n * 2, index)
                var units: [UInt16] = []
                units.reserveCapacity(n)
                for i in 0..<n { units.append(UInt16(integer(bytes, at: body + 2 * i, size: 2))) }
                guard let string = String(validating: units, as: UTF16.self) else {
                    throw fail("object \(index) is a UTF-16 string that is not valid text")
                }
                objects.append(.string(string))
            case 0x8:
                try need(start + 1, info + 1, index)
                let value = integer(bytes, at: start + 1, size: info + 1)
                guard value <= UInt64(Int32.max) else { throw fail("object \(index) is the UID \(value), too large") }
                objects.append(.uid(Int(value)))
            case 0xA, 0xB, 0xC:
                let (n, body) = try length()
                guard n <= trailer / referenceSize else { throw fail("object \(index) claims \(n) members") }
                try need(body, n * referenceSize, index)
                var members: [Int] = []
                members.reserveCapacity(n)
                for i in 0..<n { members.append(try reference(body + i * referenceSize, index)) }
                objects.append(.array(members))
            case 0xD:
                let (n, body) = try length()
                guard n <= trailer / (2 * referenceSize) else { throw fail("object \(index) claims \(n) entries") }
                try need(body, 2 * n * referenceSize, index)
                var keys: [Int] = [], values: [Int] = []
                keys.reserveCapacity(n)
                values.reserveCapacity(n)
                for i in 0..<n {
                    keys.append(try reference(body + i * referenceSize, index))
                    values.append(try reference(body + (n + i) * referenceSize, index))
                }
                objects.append(.dictionary(keys: keys, values: values))
            default:
                throw fail("object \(index) has the unknown marker 0x\(String(marker, radix: 16))")
            }
        }
        return (objects, Int(top))
    }
}
