import Foundation

/// A CSV cell's bytes read as the values an import reads: an integer, a number, a boolean —
/// with the surrounding whitespace that `trimmingCharacters(in: .whitespaces)` removes left
/// out, without making a `String` of a cell that is a number.
///
/// Cells that start or end with a byte beyond ASCII (which might be Unicode whitespace) are
/// trimmed by Foundation, so the answer is always the one `String` and Foundation give.
enum CSVCellText {
    /// The cell without leading and trailing whitespace.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> Trimmed {
        var from = 0, to = bytes.count
        while from < to, bytes[from] == 0x20 || bytes[from] == 0x09 { from += 1 }
        while to > from, bytes[to - 1] == 0x20 || bytes[to - 1] == 0x09 { to -= 1 }
        if from < to, bytes[from] >= 0x80 || bytes[to - 1] >= 0x80 {
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return .text(text)
        }
        return .bytes(UnsafeBufferPointer(rebasing: bytes[from..<to]))
    }

    enum Trimmed {
        /// The trimmed bytes (a part of the cell's).
        case bytes(UnsafeBufferPointer<UInt8>)
        /// The trimmed text, where Foundation trimmed it.
        case text(String)

        func with<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
            switch self {
            case .bytes(let bytes): return body(bytes)
            case .text(var text): return text.withUTF8 { body($0) }
            }
        }
    }

    /// The integer the bytes write (`Int64(String)`'s syntax: an optional sign and decimal
    /// digits), or nil.
    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            i = 1
        }
        guard i < bytes.count else { return nil }
        var value: Int64 = 0
        while i < bytes.count {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(Int64(digit)) : times.addingReportingOverflow(Int64(digit))
            guard !o1, !o2 else { return nil }
            value = next
            i += 1
        }
        return value
    }

    /// Whether every byte is one a decimal number is written with (`0-9 + - . e E`): no
    /// `nan`, `inf` or hexadecimal.
    static func isNumberText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        for b in bytes {
            switch b {
            case 0x30...0x39, UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): continue
            default: return false
            }
        }
        return true
    }

    /// The number the bytes write (`Double(String)`), or nil.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether the bytes are `word` (lowercase ASCII) in any case.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let letters = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for (b, letter) in zip(bytes, letters) where b | 0x20 != letter {
            return false
        }
        return true
    }

    /// Whether the bytes start as an ISO 8601 date does (four digits and a hyphen): a cheap test
    /// before reading one.
    static func mayBeISODate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 10 && bytes[0] &- 0x30 < 10 && bytes[1] &- 0x30 < 10 && bytes[2] &- 0x30 < 10 && bytes[3] &- 0x30 < 10
            && bytes[4] == UInt8(ascii: "-")
    }
}
