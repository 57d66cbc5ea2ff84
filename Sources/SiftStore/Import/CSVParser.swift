import Foundation

/// RFC 4180 CSV: fields separated by commas, records by CRLF or LF, fields in double quotes
/// may hold commas, newlines and doubled quotes. A UTF-8 byte order mark is skipped.
enum CSVParser {
    struct Failure: Error {
        let line: Int
        let message: String
    }

    static func parse(_ data: Data) throws(Failure) -> [[String]] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var line = 1
        var i = 0
        var quoted = false
        var fieldStarted = false
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldStarted = false
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
                        throw Failure(line: line, message: "unexpected character after a closing quote")
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
                endField()
                fieldStarted = true
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                if b == UInt8(ascii: "\r"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\n") { i += 1 }
                if !(record.isEmpty && field.isEmpty && !fieldStarted) {
                    endField()
                    records.append(record)
                }
                record = []
                line += 1
            case UInt8(ascii: "\""):
                guard field.isEmpty else { throw Failure(line: line, message: "a quote inside an unquoted field") }
                quoted = true
                fieldStarted = true
            default:
                field.append(b)
                fieldStarted = true
            }
            i += 1
        }
        if quoted { throw Failure(line: line, message: "unterminated quoted field") }
        if !record.isEmpty || !field.isEmpty || fieldStarted {
            endField()
            records.append(record)
        }
        return records
    }
}
