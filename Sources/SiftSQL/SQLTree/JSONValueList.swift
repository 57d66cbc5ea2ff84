import SiftEvaluation

/// The values of a long `IN` list as one JSON array, bound as one parameter in SQLite
/// (``SQLDialect/membership(_:in:bind:)``): `[1,2,"three"]`.
///
/// Only integers and texts are written, the values JSON gives back exactly as they were bound
/// (an integer as SQLite's INTEGER, a string as TEXT); a list holding anything else (a real,
/// whose digits SQLite's JSON reader may round differently, data, NULL, text holding U+0000)
/// keeps one parameter per value.
package struct JSONValueList {
    /// The fewest values written as one array; shorter lists keep their own parameters, as
    /// `sift sql` shows them.
    package static let minimumCount = 64

    /// The JSON text of the array.
    package let json: String

    /// The array of `values`, or nil when one is a value this array cannot carry exactly.
    package init?(_ values: [SQLValue]) {
        var elements: [Value] = []
        elements.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .integer(let value):
                elements.append(.int(value))
            case .text(let text) where !text.utf8.contains(0):
                elements.append(.string(text))
            case .text, .real, .blob, .null:
                return nil
            }
        }
        json = JSONWriter.string(.array(elements))
    }
}
