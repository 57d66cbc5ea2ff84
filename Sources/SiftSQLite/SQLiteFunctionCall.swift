import CSQLite

/// One call of a registered SQL function (or one step of an aggregate): its arguments and its
/// auxiliary data. Valid only during the callback that received it; do not keep it.
public struct SQLiteFunctionCall {
    let context: OpaquePointer
    let arguments: UnsafeMutablePointer<OpaquePointer?>?
    /// The number of arguments passed.
    public let argumentCount: Int

    init(context: OpaquePointer, argumentCount: Int32, arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        self.context = context
        self.argumentCount = Int(max(0, argumentCount))
        self.arguments = arguments
    }

    /// The `sqlite3_value*` of argument `index`, nil when out of range.
    @inline(__always)
    private func argument(_ index: Int) -> OpaquePointer? {
        guard index >= 0, index < argumentCount, let arguments else { return nil }
        return arguments[index]
    }

    /// Argument `index` (0-based) as the value of its own storage class; `.null` when out of range.
    public func value(_ index: Int) -> SQLiteValue {
        switch type(index) {
        case .integer: return .integer(int64(index))
        case .real: return .real(double(index))
        case .text: return .text(text(index))
        case .blob: return .blob(blob(index))
        case .null: return .null
        }
    }

    /// The storage class of argument `index` (`.null` when out of range).
    public func type(_ index: Int) -> SQLiteStorageClass {
        guard let value = argument(index) else { return .null }
        return SQLiteStorageClass(code: sqlite3_value_type(value))
    }

    /// Whether argument `index` is NULL (or out of range).
    public func isNull(_ index: Int) -> Bool {
        type(index) == .null
    }

    /// Argument `index` as an integer (SQLite's conversion for other classes; NULL is 0).
    public func int64(_ index: Int) -> Int64 {
        guard let value = argument(index) else { return 0 }
        return sqlite3_value_int64(value)
    }

    /// Argument `index` as a double (SQLite's conversion for other classes; NULL is 0).
    public func double(_ index: Int) -> Double {
        guard let value = argument(index) else { return 0 }
        return sqlite3_value_double(value)
    }

    /// Argument `index` as text, decoded from UTF-8 by its byte length (NUL characters survive).
    /// NULL is "".
    public func text(_ index: Int) -> String {
        withUTF8(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Argument `index` as bytes; NULL and an empty blob are both `[]`.
    public func blob(_ index: Int) -> [UInt8] {
        guard let value = argument(index), let bytes = sqlite3_value_blob(value) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))))
    }

    /// Calls `body` with argument `index` as UTF-8 text in SQLite's own buffer, without copying
    /// (`sqlite3_value_text` and `sqlite3_value_bytes`); the buffer is empty for NULL. It is valid
    /// only inside `body`.
    public func withUTF8<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard let value = argument(index), let bytes = sqlite3_value_text(value) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))))
    }

    /// The object stored with `setAuxiliaryData` for argument `argument`, if SQLite kept it: it
    /// does for arguments that are constant within the statement (literals, bound parameters), so
    /// work derived from them (a compiled pattern) can be done once per statement, not per row.
    public func auxiliaryData(for argument: Int) -> AnyObject? {
        guard let pointer = sqlite3_get_auxdata(context, Int32(clamping: argument)) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Stores `object` with argument `argument` for later calls of the same statement (see
    /// `auxiliaryData(for:)`). It is retained until SQLite discards it.
    public func setAuxiliaryData(_ object: AnyObject, for argument: Int) {
        let pointer = Unmanaged<AnyObject>.passRetained(object).toOpaque()
        sqlite3_set_auxdata(context, Int32(clamping: argument), pointer) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
    }
}
