/// Reads a result column's bytes as a `PostgreSQLValue`, by the column's type OID and format.
///
/// Binary columns of the types `PostgreSQLValue` names decode to them (`int2`, `int4`, `int8` and
/// `oid` as `.int64`; `float4` and `float8` as `.double`; the text types as `.text`; `numeric` and
/// `uuid` as `.typed` with PostgreSQL's own text for them); any other binary column, or a length
/// that does not fit its type, is `.binary` as it came. A text-format column is `.typed` with its
/// text.
enum PostgreSQLValueDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, type: PostgreSQLTypeOID, binary: Bool) -> PostgreSQLValue {
        guard binary else { return .typed(String(decoding: bytes, as: UTF8.self), type) }
        switch type {
        case .bool where bytes.count == 1:
            return .bool(bytes[0] != 0)
        case .int2 where bytes.count == 2:
            return .int64(Int64(Int16(bitPattern: UInt16(bigEndian(bytes)))))
        case .int4 where bytes.count == 4:
            return .int64(Int64(Int32(bitPattern: UInt32(bigEndian(bytes)))))
        case .oid where bytes.count == 4:
            return .int64(Int64(UInt32(bigEndian(bytes))))
        case .int8 where bytes.count == 8:
            return .int64(Int64(bitPattern: bigEndian(bytes)))
        case .float4 where bytes.count == 4:
            return .double(Double(Float(bitPattern: UInt32(bigEndian(bytes)))))
        case .float8 where bytes.count == 8:
            return .double(Double(bitPattern: bigEndian(bytes)))
        case .text, .varchar, .bpchar, .name, .char, .unknown, .json, .xml:
            return .text(String(decoding: bytes, as: UTF8.self))
        case .jsonb where bytes.first == 1:
            // A version byte (1), then the JSON text.
            return .text(String(decoding: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self))
        case .bytea:
            return .bytes(Array(bytes))
        case .timestamptz where bytes.count == 8, .timestamp where bytes.count == 8:
            return .timestamp(PostgreSQLTimestamp(microsecondsSince2000: Int64(bitPattern: bigEndian(bytes))))
        case .uuid where bytes.count == 16:
            return .typed(uuidText(bytes), .uuid)
        case .numeric:
            if let text = numericText(bytes) { return .typed(text, .numeric) }
            return .binary(Array(bytes), type)
        default:
            return .binary(Array(bytes), type)
        }
    }

    /// The big-endian unsigned integer in `bytes` (at most 8 of them).
    private static func bigEndian(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        return value
    }

    private static let hexDigits = Array("0123456789abcdef".unicodeScalars)

    /// `a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11`, as PostgreSQL writes a uuid.
    static func uuidText(_ bytes: UnsafeRawBufferPointer) -> String {
        var text = ""
        text.unicodeScalars.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.unicodeScalars.append("-") }
            text.unicodeScalars.append(hexDigits[Int(byte >> 4)])
            text.unicodeScalars.append(hexDigits[Int(byte & 0xF)])
        }
        return text
    }

    /// A binary `numeric` as PostgreSQL's text writes it (`-12.340`, `NaN`, `Infinity`); nil when
    /// the bytes are not a numeric.
    ///
    /// The binary form: the number of base-10000 digits, the weight of the first (its power of
    /// 10000), the sign, the display scale (digits after the point), then the digits, each an int16.
    static func numericText(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count >= 8 else { return nil }
        func int16(at offset: Int) -> Int { Int(Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))) }
        let digitCount = int16(at: 0)
        let weight = int16(at: 2)
        let sign = UInt16(bitPattern: Int16(int16(at: 4)))
        let scale = int16(at: 6)
        guard digitCount >= 0, scale >= 0, bytes.count == 8 + 2 * digitCount else { return nil }
        switch sign {
        case 0xC000: return "NaN"
        case 0xD000: return "Infinity"
        case 0xF000: return "-Infinity"
        case 0x0000, 0x4000: break
        default: return nil
        }
        let digits = (0..<digitCount).map { int16(at: 8 + 2 * $0) }
        guard digits.allSatisfy({ (0..<10_000).contains($0) }) else { return nil }
        func digit(_ index: Int) -> Int { index >= 0 && index < digits.count ? digits[index] : 0 }
        func padded(_ value: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: 4 - text.count) + text
        }
        var text = sign == 0x4000 ? "-" : ""
        if weight < 0 {
            text += "0"
        } else {
            text += String(digit(0))
            for index in stride(from: 1, through: weight, by: 1) { text += padded(digit(index)) }
        }
        if scale > 0 {
            var fraction = ""
            var index = weight + 1
            while fraction.count < scale {
                fraction += padded(digit(index))
                index += 1
            }
            text += "." + fraction.prefix(scale)
        }
        return text
    }
}
