import Foundation

/// RFC 4180 CSV: fields separated by commas, records by CRLF or LF, fields in double quotes
/// may hold commas, newlines and doubled quotes. A UTF-8 byte order mark is skipped; blank
/// lines are skipped.
///
/// A quoted empty field (`""`) is the empty string; an unquoted empty field is no value (nil):
/// the importer leaves its attribute out. The text must be UTF-8: anything else is an error.
/// Records and errors carry the line of the file they are on (a quoted field spanning lines
/// counts each of them), never a record number.
enum CSVParser {
    struct Failure: Error {
        /// The 1-based line of the file.
        let line: Int
        let message: String
    }

    /// One record: its fields (nil for an unquoted empty field) and the line it starts on.
    struct Record {
        let fields: [String?]
        let line: Int
    }

    static func parse(_ data: Data) throws(Failure) -> [Record] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var records: [Record] = []
        var fields: [String?] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var fieldLine = 1
        var i = 0
        var quoted = false
        var wasQuoted = false
        var fieldStarted = false
        func endField() throws(Failure) {
            if field.isEmpty {
                fields.append(wasQuoted ? "" : nil)
            } else {
                guard let text = String(validating: field, as: UTF8.self) else {
                    throw Failure(line: fieldLine + invalidUTF8Line(field), message: "the text is not UTF-8 (CSV files must be UTF-8; convert this one, e.g. with iconv)")
                }
                fields.append(text)
            }
            field.removeAll(keepingCapacity: true)
            fieldStarted = false
            wasQuoted = false
            fieldLine = line
        }
        while i < bytes.count {
            let b = bytes[i]
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(b)
                        i += 2
                        continue
                    }
                    quoted = false
                    i += 1
                    if i < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[i]) {
                        throw Failure(line: line, message: "unexpected character after a closing quote (a quote inside a quoted field is written \"\")")
                    }
                    continue
                }
                if b == UInt8(ascii: "\n") { line += 1 }
                field.append(b)
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: ","):
                try endField()
                fieldStarted = true
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                if b == UInt8(ascii: "\r"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\n") { i += 1 }
                if !(fields.isEmpty && field.isEmpty && !fieldStarted && !wasQuoted) {
                    try endField()
                    records.append(Record(fields: fields, line: recordLine))
                }
                fields = []
                line += 1
                recordLine = line
                fieldLine = line
            case UInt8(ascii: "\""):
                guard field.isEmpty && !wasQuoted else {
                    throw Failure(line: line, message: "a quote inside an unquoted field (quote the whole field, and write a quote in it as \"\")")
                }
                quoted = true
                wasQuoted = true
                fieldStarted = true
            default:
                if wasQuoted {
                    throw Failure(line: line, message: "unexpected character after a closing quote (a quote inside a quoted field is written \"\")")
                }
                field.append(b)
                fieldStarted = true
            }
            i += 1
        }
        if quoted { throw Failure(line: fieldLine, message: "a quoted field starting on this line has no closing quote") }
        if !fields.isEmpty || !field.isEmpty || fieldStarted || wasQuoted {
            try endField()
            records.append(Record(fields: fields, line: recordLine))
        }
        return records
    }

    /// How many lines into `bytes` (not valid UTF-8) the first invalid byte is.
    private static func invalidUTF8Line(_ bytes: [UInt8]) -> Int {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var newlines = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if scalar == "\n" { newlines += 1 }
            case .emptyInput, .error: return newlines
            }
        }
    }
}
