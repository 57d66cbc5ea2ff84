import Foundation

/// ISO 8601 dates, read and written without a formatter or locale (fast and the same everywhere).
///
/// Reads `2021-03-04`, `2021-03-04T05:06:07Z`, `2021-03-04T05:06:07.25+01:00`,
/// `2021-03-04 05:06` (a space may stand for `T`; no zone means UTC).
/// Writes `2021-03-04T05:06:07Z`, with fractional seconds when the date has them.
public enum ISO8601 {
    public static func date(from text: String) -> Date? {
        var bytes = Array(text.utf8)[...]
        func number(_ digits: Int) -> Int? {
            guard bytes.count >= digits else { return nil }
            var value = 0
            for _ in 0..<digits {
                guard let b = bytes.first, b >= 0x30, b <= 0x39 else { return nil }
                value = value * 10 + Int(b - 0x30)
                bytes.removeFirst()
            }
            return value
        }
        func eat(_ ch: Character) -> Bool {
            if bytes.first == ch.asciiValue { bytes.removeFirst(); return true }
            return false
        }
        guard let year = number(4), eat("-"), let month = number(2), eat("-"), let day = number(2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86400
        if eat("T") || eat("t") || eat(" ") {
            guard let hour = number(2), eat(":"), let minute = number(2), hour < 24, minute < 60 else { return nil }
            seconds += Double(hour * 3600 + minute * 60)
            if eat(":") {
                guard let second = number(2), second < 61 else { return nil }
                seconds += Double(second)
                if eat(".") || eat(",") {
                    var fraction = 0.0
                    var scale = 0.1
                    var any = false
                    while let b = bytes.first, b >= 0x30, b <= 0x39 {
                        fraction += Double(b - 0x30) * scale
                        scale /= 10
                        any = true
                        bytes.removeFirst()
                    }
                    guard any else { return nil }
                    seconds += fraction
                }
            }
            if eat("Z") || eat("z") {
            } else if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes.removeFirst()
                guard let hours = number(2), hours < 24 else { return nil }
                var minutes = 0
                if eat(":") {
                    guard let m = number(2) else { return nil }
                    minutes = m
                } else if !bytes.isEmpty {
                    guard let m = number(2) else { return nil }
                    minutes = m
                }
                guard minutes < 60 else { return nil }
                let offset = Double(hours * 3600 + minutes * 60)
                seconds += sign == UInt8(ascii: "+") ? -offset : offset
            }
        }
        guard bytes.isEmpty else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    public static func string(from date: Date) -> String {
        let interval = date.timeIntervalSince1970
        // Beyond year ±9999 there is no ISO 8601 form worth printing; show the raw seconds.
        guard interval.isFinite, abs(interval) < 253_402_300_800 else { return "\(interval)" }
        let wholeSeconds = (interval).rounded(.down)
        var fraction = interval - wholeSeconds
        var total = Int64(wholeSeconds)
        // Round to microseconds; carry a fraction that rounds up to a whole second.
        var micros = Int64((fraction * 1_000_000).rounded())
        if micros >= 1_000_000 { total += 1; micros -= 1_000_000 }
        fraction = Double(micros)
        var days = total / 86400
        var secondsOfDay = total % 86400
        if secondsOfDay < 0 { secondsOfDay += 86400; days -= 1 }
        let (year, month, day) = civilFromDays(days)
        let hour = secondsOfDay / 3600, minute = secondsOfDay / 60 % 60, second = secondsOfDay % 60
        // The text's bytes written in place (one buffer, not a string per field: a JSON Lines
        // result prints a date per row).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        appendDigits(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(minute, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(second, width: 2, to: &bytes)
        if micros > 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(micros, width: 6, to: &bytes)
            while bytes.last == UInt8(ascii: "0") { bytes.removeLast() }
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` in decimal, zero-padded to at least `width` digits, a minus sign first when
    /// negative (`-0044`).
    private static func appendDigits(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var count = 1
        var rest = magnitude / 10
        while rest > 0 { count += 1; rest /= 10 }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(width, count)))
        var index = bytes.count - 1
        while magnitude > 0 {
            bytes[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        }
        assert(index >= start - 1, "the digits fit the width made for them")
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
