import Foundation
import SiftEvaluation

/// Reads a binary property list (`bplist00`) straight into a ``Value``: the binary store's file.
///
/// Foundation's `PropertyListSerialization` builds `NSDictionary`s and `NSArray`s that are then
/// bridged to Swift a value at a time, and a `Value` is made of those by dynamic casts: for a
/// 14 MB store that was 2.8 s and 190 MB, against 0.44 s for the same objects as JSON. This
/// reads the objects from the bytes, once each: a string that the file shares between many
/// objects (every key, every repeated value) is made once and shared, and so is the key list
/// of every dictionary of the same keys (in the order of the keys' objects, whatever order the
/// writer gave them).
///
/// The reading trusts nothing: every offset and reference is checked against the file, counts
/// against the bytes that could hold them, nesting is at most ``maximumDepth`` deep, no more
/// objects are read than the file could refer to (objects that refer to each other in a loop
/// would be read forever), and a set (which no Sift store holds) is refused. A fault is a
/// ``Failure`` saying what is wrong.
///
/// | object | value |
/// |---|---|
/// | `true`, `false` | `.bool` |
/// | integer (1 to 8 bytes; 16 when it fits 64 bits) | `.int` |
/// | real (4 or 8 bytes) | `.double` |
/// | date | `.date` |
/// | data | `.data` |
/// | ASCII, UTF-16 string | `.string` |
/// | array | `.array` |
/// | dictionary (string keys) | `.dictionary` |
struct BinaryPropertyListReader {
    struct Failure: Error {
        let message: String
    }

    /// How deep arrays and dictionaries may nest (a store's objects are four deep).
    static let maximumDepth = 256

    private let bytes: UnsafeRawBufferPointer
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topObject: Int
    private let offsetTable: Int
    /// Where the trailer starts: objects lie before it.
    private let trailer: Int
    /// Strings already read, by object: a file refers to one string object from many places.
    private var strings: [String?]
    /// How many more objects may be read: one for each reference the file could hold. Only
    /// an array or dictionary that the file refers to more than once (in a loop, or so that
    /// its objects double at each level) is read more often.
    private var budget: Int
    /// The key lists of the dictionaries read, by their keys' references: dictionaries of the
    /// same key objects share one.
    private var shapes = NamedDictionaryShapes<[Int]>()

    /// The top object of `data`, a binary property list.
    static func read(_ data: Data) throws(Failure) -> Value {
        let result: Result<Value, Failure> = data.withUnsafeBytes { bytes in
            do throws(Failure) {
                var reader = try BinaryPropertyListReader(bytes)
                return .success(try reader.object(reader.topObject, depth: 0))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        self.bytes = bytes
        guard bytes.count >= 8 + 32, bytes.starts(with: "bplist00".utf8) else {
            throw Failure(message: "not a binary property list")
        }
        trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Failure(message: "its trailer gives sizes of \(offsetSize) and \(referenceSize) bytes for offsets and references")
        }
        let count = Self.integer(bytes, at: trailer + 8, size: 8)
        let top = Self.integer(bytes, at: trailer + 16, size: 8)
        let table = Self.integer(bytes, at: trailer + 24, size: 8)
        // The offset table lies between the header and the trailer, and holds every object's offset.
        guard table >= 8, table < UInt64(trailer), count > 0, count <= (UInt64(trailer) - table) / UInt64(offsetSize) else {
            throw Failure(message: "its trailer claims \(count) objects, more than the file holds")
        }
        guard top < count else { throw Failure(message: "its top object is \(top), of \(count)") }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTable = Int(table)
        strings = Array(repeating: nil, count: objectCount)
        budget = trailer / referenceSize + 1
    }

    // MARK: Objects

    private mutating func object(_ index: Int, depth: Int) throws(Failure) -> Value {
        budget -= 1
        guard budget >= 0 else { throw Failure(message: "its objects refer to each other more often than its bytes could (in a loop)") }
        let start = try offset(of: index)
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            case 0x00: return .null
            default: throw Failure(message: "object \(index) is of an unknown kind (0x\(String(marker, radix: 16)))")
            }
        case 0x1:
            let size = 1 << info
            try need(start + 1, size, index)
            if size == 16 {
                // A 128-bit integer: Sift's values fit in 64 bits.
                guard Self.integer(bytes, at: start + 1, size: 8) == 0 else {
                    throw Failure(message: "object \(index) is an integer beyond 64 bits")
                }
                return .int(Int64(bitPattern: Self.integer(bytes, at: start + 9, size: 8)))
            }
            guard size <= 8 else { throw Failure(message: "object \(index) is an integer of \(size) bytes") }
            let raw = Self.integer(bytes, at: start + 1, size: size)
            // Integers of 8 bytes are signed; shorter ones are not.
            return .int(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2:
            let size = 1 << info
            try need(start + 1, size, index)
            switch size {
            case 4: return .double(Double(Float(bitPattern: UInt32(Self.integer(bytes, at: start + 1, size: 4)))))
            case 8: return .double(Double(bitPattern: Self.integer(bytes, at: start + 1, size: 8)))
            default: throw Failure(message: "object \(index) is a real of \(size) bytes")
            }
        case 0x3:
            guard marker == 0x33 else { throw Failure(message: "object \(index) is of an unknown kind (0x\(String(marker, radix: 16)))") }
            try need(start + 1, 8, index)
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: Self.integer(bytes, at: start + 1, size: 8))))
        case 0x4:
            let (count, body) = try length(info, at: start, index)
            try need(body, count, index)
            return .data(Data(bytes[body..<body + count]))
        case 0x5, 0x6:
            return .string(try string(index, depth: depth))
        case 0xA:
            let (count, body) = try length(info, at: start, index)
            try need(body, count * referenceSize, index)
            guard depth < Self.maximumDepth else { throw Failure(message: "its objects nest more than \(Self.maximumDepth) deep") }
            var items: [Value] = []
            items.reserveCapacity(count)
            for i in 0..<count {
                items.append(try object(reference(at: body + i * referenceSize), depth: depth + 1))
            }
            return .array(items)
        case 0xC:
            throw Failure(message: "it holds a set (object \(index)), which no Sift store or model holds")
        case 0xD:
            let (count, body) = try length(info, at: start, index)
            try need(body, 2 * count * referenceSize, index)
            guard depth < Self.maximumDepth else { throw Failure(message: "its objects nest more than \(Self.maximumDepth) deep") }
            // In the order of their keys' objects: dictionaries of the same keys (written in
            // any order) then share one key list.
            let order = (0..<count).map { (key: reference(at: body + $0 * referenceSize), value: reference(at: body + (count + $0) * referenceSize)) }
                .sorted { $0.key < $1.key }
            var keys: [String] = []
            var values: [Value] = []
            keys.reserveCapacity(count)
            values.reserveCapacity(count)
            for (key, value) in order {
                keys.append(try string(key, depth: depth + 1))
                values.append(try object(value, depth: depth + 1))
            }
            return .dictionary(shapes.dictionary(named: order.map(\.key), keys: keys, values: values))
        default:
            throw Failure(message: "object \(index) is of a kind no Sift store holds (0x\(String(marker, radix: 16)))")
        }
    }

    /// The string that object `index` is (made once, however many objects refer to it).
    private mutating func string(_ index: Int, depth: Int) throws(Failure) -> String {
        // (A dictionary's key reference is checked here first: it may name no object.)
        guard strings.indices.contains(index) else { throw Failure(message: "a reference to object \(index), of \(objectCount)") }
        if let known = strings[index] { return known }
        let start = try offset(of: index)
        let marker = bytes[start]
        let (count, body) = try length(Int(marker & 0x0F), at: start, index)
        let text: String
        switch marker >> 4 {
        case 0x5:
            try need(body, count, index)
            let ascii = UnsafeRawBufferPointer(rebasing: bytes[body..<body + count])
            guard !ascii.contains(where: { $0 >= 0x80 }) else { throw Failure(message: "object \(index), an ASCII string, holds a byte beyond ASCII") }
            text = String(decoding: ascii, as: UTF8.self)
        case 0x6:
            try need(body, count * 2, index)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for i in 0..<count { units.append(UInt16(bytes[body + 2 * i]) << 8 | UInt16(bytes[body + 2 * i + 1])) }
            guard let decoded = String(validating: units, as: UTF16.self) else {
                throw Failure(message: "object \(index), a UTF-16 string, is not valid UTF-16")
            }
            text = decoded
        default:
            throw Failure(message: "object \(index) is a dictionary key that is not a string")
        }
        strings[index] = text
        return text
    }

    // MARK: Bytes

    /// Where object `index` starts.
    private func offset(of index: Int) throws(Failure) -> Int {
        guard index >= 0, index < objectCount else { throw Failure(message: "a reference to object \(index), of \(objectCount)") }
        let offset = Self.integer(bytes, at: offsetTable + index * offsetSize, size: offsetSize)
        guard offset >= 8, offset < UInt64(trailer) else {
            throw Failure(message: "object \(index) is said to start outside the file")
        }
        return Int(offset)
    }

    /// The object a reference at `position` names.
    private func reference(at position: Int) -> Int {
        let value = Self.integer(bytes, at: position, size: referenceSize)
        return value > UInt64(Int.max) ? -1 : Int(value)
    }

    /// The count of an array, dictionary, string or data whose marker is at `start` (in its low
    /// four bits, or an integer object after it when they are all set) and where its body starts.
    private func length(_ info: Int, at start: Int, _ index: Int) throws(Failure) -> (count: Int, body: Int) {
        guard info == 0x0F else { return (info, start + 1) }
        try need(start + 1, 1, index)
        let marker = bytes[start + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw Failure(message: "object \(index) has a count that is not an integer") }
        let size = 1 << Int(marker & 0x0F)
        try need(start + 2, size, index)
        let count = Self.integer(bytes, at: start + 2, size: size)
        guard count <= UInt64(trailer) else { throw Failure(message: "object \(index) claims \(count) elements, more than the file holds") }
        return (Int(count), start + 2 + size)
    }

    /// Checks that `count` bytes from `start` lie before the trailer.
    private func need(_ start: Int, _ count: Int, _ index: Int) throws(Failure) {
        guard count >= 0, start <= trailer, count <= trailer - start else {
            throw Failure(message: "object \(index) runs past the end of its objects")
        }
    }

    /// The big-endian unsigned integer of `size` bytes at `offset`.
    private static func integer(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }
}
