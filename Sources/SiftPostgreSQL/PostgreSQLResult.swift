import CLibPQ

/// The rows of one statement as libpq received them (a `PGresult`), freed when the last reference
/// (the result, or any of its rows) goes away. Values are decoded when they are read.
///
/// A result never changes once made, so it and its rows may be read from any thread.
public final class PostgreSQLResult: @unchecked Sendable, RandomAccessCollection {
    let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        sift_PQclear(handle)
    }

    public var startIndex: Int { 0 }
    /// The number of rows.
    public var endIndex: Int { Int(sift_PQntuples(handle)) }

    /// Row `index` (0-based).
    public subscript(index: Int) -> PostgreSQLRow {
        PostgreSQLRow(result: self, index: Int32(truncatingIfNeeded: index))
    }

    /// The number of columns in each row.
    public var columnCount: Int { Int(sift_PQnfields(handle)) }

    /// The columns' names and types, in order.
    public var columns: [PostgreSQLColumn] {
        (0..<sift_PQnfields(handle)).map { index in
            PostgreSQLColumn(
                name: sift_PQfname(handle, index).map { String(cString: $0) } ?? "",
                type: PostgreSQLTypeOID(rawValue: sift_PQftype(handle, index)))
        }
    }

    /// The rows an INSERT, UPDATE, DELETE, MERGE, SELECT, MOVE, FETCH or COPY affected
    /// (`PQcmdTuples`); 0 for other statements.
    public var affectedRowCount: Int {
        guard let text = sift_PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// Whether `column` arrived in binary (`PQfformat`); false past the last column.
    public func isBinary(_ column: Int) -> Bool {
        column >= 0 && column < columnCount && sift_PQfformat(handle, Int32(truncatingIfNeeded: column)) == 1
    }

    /// The type of `column` (`PQftype`); `.unspecified` past the last column.
    public func columnType(_ column: Int) -> PostgreSQLTypeOID {
        guard column >= 0, column < columnCount else { return .unspecified }
        return PostgreSQLTypeOID(rawValue: sift_PQftype(handle, Int32(truncatingIfNeeded: column)))
    }

    /// The bytes of the value in `column` of row `row` as libpq holds them, undecoded (binary or
    /// text, as ``isBinary(_:)`` says), or nil for NULL or a row or column out of range
    /// (`PQgetisnull` answers 1 for those): for decoders that know a column's type and want no
    /// `PostgreSQLValue` in between. The bytes belong to the result: use them only while holding
    /// it (`withExtendedLifetime`).
    public func valueBytes(row: Int, column: Int) -> UnsafeRawBufferPointer? {
        let row = Int32(truncatingIfNeeded: row), column = Int32(truncatingIfNeeded: column)
        if sift_PQgetisnull(handle, row, column) != 0 { return nil }
        return UnsafeRawBufferPointer(start: sift_PQgetvalue(handle, row, column), count: Int(sift_PQgetlength(handle, row, column)))
    }

    /// The value in `column` of row `row`, decoded by the column's type.
    func value(row: Int32, column: Int32) -> PostgreSQLValue {
        guard row >= 0, row < sift_PQntuples(handle), column >= 0, column < sift_PQnfields(handle) else { return .null }
        if sift_PQgetisnull(handle, row, column) != 0 { return .null }
        let length = Int(sift_PQgetlength(handle, row, column))
        let bytes = UnsafeRawBufferPointer(start: sift_PQgetvalue(handle, row, column), count: length)
        return PostgreSQLValueDecoder.decode(
            bytes, type: PostgreSQLTypeOID(rawValue: sift_PQftype(handle, column)), binary: sift_PQfformat(handle, column) == 1)
    }
}

/// A result column: its name (its `AS` name, or the server's choice) and its type.
public struct PostgreSQLColumn: Hashable, Sendable {
    public let name: String
    public let type: PostgreSQLTypeOID

    public init(name: String, type: PostgreSQLTypeOID) {
        self.name = name
        self.type = type
    }
}
