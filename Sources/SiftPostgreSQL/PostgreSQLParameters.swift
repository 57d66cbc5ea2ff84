/// Parameter values laid out as `PQexecPrepared` takes them: their bytes back to back in one
/// buffer, with each one's type, length and format (0 text, 1 binary).
///
/// Every value but `typed` is binary: integers and floats big-endian (so -0.0, NaN and ±infinity
/// are sent as they are), text as its UTF-8 bytes (the server checks them, refusing a NUL), bytes
/// as they are. `typed` text is sent as text, ending in a NUL, so it must not hold one. A NULL is a
/// null pointer.
struct PostgreSQLParameters {
    private(set) var types: [UInt32] = []
    private(set) var lengths: [Int32] = []
    private(set) var formats: [Int32] = []
    /// Each value's offset in `buffer`; nil for NULL.
    private var offsets: [Int?] = []
    private var buffer: [UInt8] = []

    /// Lays out `values`; throws when a `typed` text holds a NUL character or a value is larger
    /// than PostgreSQL's protocol allows (1 GB fields, 32-bit lengths).
    init(_ values: [PostgreSQLValue], sql: String) throws(PostgreSQLError) {
        types.reserveCapacity(values.count)
        for value in values {
            let start = buffer.count
            var format: Int32 = 1
            let type: PostgreSQLTypeOID
            switch value {
            case .null:
                types.append(PostgreSQLTypeOID.unspecified.rawValue)
                lengths.append(0)
                formats.append(1)
                offsets.append(nil)
                continue
            case .bool(let b):
                type = .bool
                buffer.append(b ? 1 : 0)
            case .int64(let i):
                type = .int8
                appendBigEndian(UInt64(bitPattern: i))
            case .double(let d):
                type = .float8
                appendBigEndian(d.bitPattern)
            case .text(let s):
                type = .text
                buffer.append(contentsOf: s.utf8)
            case .bytes(let bytes):
                type = .bytea
                buffer.append(contentsOf: bytes)
            case .timestamp(let t):
                type = .timestamptz
                appendBigEndian(UInt64(bitPattern: t.microsecondsSince2000))
            case .typed(let s, let oid):
                guard !s.containsNUL else { throw .nulCharacter(in: "a \(oid) parameter", sql: sql) }
                type = oid
                format = 0
                buffer.append(contentsOf: s.utf8)
                buffer.append(0)
            case .binary(let bytes, let oid):
                type = oid
                buffer.append(contentsOf: bytes)
            }
            let length = buffer.count - start - (format == 0 ? 1 : 0)
            guard let length32 = Int32(exactly: length) else {
                throw PostgreSQLError(sqlState: "54000", message: "a parameter of \(length) bytes is too large", sql: sql)
            }
            types.append(type.rawValue)
            lengths.append(length32)
            formats.append(format)
            offsets.append(start)
        }
        // An empty text or bytea must still be a non-null pointer (a null one is NULL).
        buffer.append(0)
    }

    var count: Int32 { Int32(types.count) }

    private mutating func appendBigEndian(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }

    /// Calls `body` with the values as C pointers (nil for NULL), valid during the call only.
    func withValuePointers<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        buffer.withUnsafeBytes { raw in
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                guard let offset, let base = raw.baseAddress else { return nil }
                return (base + offset).assumingMemoryBound(to: CChar.self)
            }
            return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
        }
    }
}
