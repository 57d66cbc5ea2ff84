import Foundation

/// Why a scan stopped: a message, the byte offset (relative to the scanned bytes) and whether
/// the bytes ran out (so more input might complete the value: the record reader then reads
/// more and tries again).
struct JSONScanFailure: Error {
    let message: String
    let offset: Int
    let ranOut: Bool
}

/// The JSON parser: reads one value from UTF-8 bytes into a ``Value``.
///
/// It is iterative (open arrays and objects are kept on explicit stacks), so deeply nested
/// input costs no native stack; nesting deeper than `maximumDepth` is an error. Objects become
/// `.dictionary` with their keys in order (a repeated key keeps its first position and its last
/// value), integers that fit 64 bits `.int`, other numbers `.double`, and the typed forms
/// `{"$date": ...}`, `{"$uuid": ...}`, `{"$data": ...}`, `{"$decimal": ...}`, `{"$double": ...}` their values
/// (``JSONTypedForm``).
///
/// The caller keeps `base` valid while scanning.
struct JSONScanner {
    let base: UnsafePointer<UInt8>
    let count: Int
    var index: Int
    let maximumDepth: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int = 0, maximumDepth: Int) {
        // An empty buffer may have no base address; any non-nil pointer will do since count is 0.
        self.base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        self.count = bytes.count
        self.index = index
        self.maximumDepth = maximumDepth
    }

    // MARK: Bytes

    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")

    @inline(__always)
    static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < count, JSONScanner.isWhitespace(base[index]) { index += 1 }
    }

    /// A failure at the current position (or at `offset`). Running past the end is noted.
    func failure(_ message: String, at offset: Int? = nil, ranOut: Bool? = nil) -> JSONScanFailure {
        let at = offset ?? index
        return JSONScanFailure(message: message, offset: at, ranOut: ranOut ?? (at >= count))
    }

    // MARK: Documents

    /// One JSON text: a value with only whitespace around it.
    mutating func scanDocument(_ workspace: inout JSONScanWorkspace) throws(JSONScanFailure) -> Value {
        let value = try scanValue(&workspace)
        try expectEnd()
        return value
    }

    /// One JSON text; an object keeps only the keys `projection` accepts (see ``scanProjectedValue``).
    mutating func scanProjectedDocument(_ workspace: inout JSONScanWorkspace, _ projection: JSONProjection) throws(JSONScanFailure) -> Value {
        let value = try scanProjectedValue(&workspace, projection)
        try expectEnd()
        return value
    }

    mutating func expectEnd() throws(JSONScanFailure) {
        skipWhitespace()
        guard index == count else { throw failure("unexpected text after the JSON value") }
    }

    // MARK: Values

    /// One value starting at `index` (leading whitespace skipped); `index` ends just after it.
    mutating func scanValue(_ w: inout JSONScanWorkspace) throws(JSONScanFailure) -> Value {
        w.reset()
        outer: while true {
            skipWhitespace()
            guard index < count else { throw failure("unexpected end of JSON") }
            var valueStart = index
            var value: Value
            switch base[index] {
            case UInt8(ascii: "{"):
                guard w.containers.count < maximumDepth else { throw failure("JSON nested too deeply", ranOut: false) }
                index += 1
                skipWhitespace()
                if index < count, base[index] == UInt8(ascii: "}") {
                    index += 1
                    value = .dictionary(ValueDictionary())
                } else {
                    w.keys.append(try scanKey())
                    w.containers.append(JSONScanWorkspace.Container(
                        isObject: true, valuesStart: w.values.count, keysStart: w.keys.count - 1, offset: valueStart))
                    continue outer
                }
            case UInt8(ascii: "["):
                guard w.containers.count < maximumDepth else { throw failure("JSON nested too deeply", ranOut: false) }
                index += 1
                skipWhitespace()
                if index < count, base[index] == UInt8(ascii: "]") {
                    index += 1
                    value = .array([])
                } else {
                    w.containers.append(JSONScanWorkspace.Container(
                        isObject: false, valuesStart: w.values.count, keysStart: w.keys.count, offset: valueStart))
                    continue outer
                }
            case JSONScanner.quote:
                value = .string(try scanString())
            case UInt8(ascii: "t"):
                try scanLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try scanLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try scanLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try scanNumber()
            default:
                throw failure("unexpected character \(characterDescription(at: index))")
            }

            // A value is complete: add it to the innermost open container, closing containers
            // whose end follows.
            while let top = w.containers.last {
                skipWhitespace()
                w.values.append(value)
                guard index < count else {
                    throw failure(top.isObject ? "unexpected end of JSON in an object" : "unexpected end of JSON in an array")
                }
                let b = base[index]
                if b == UInt8(ascii: ",") {
                    index += 1
                    if top.isObject {
                        skipWhitespace()
                        w.keys.append(try scanKey())
                    }
                    continue outer
                }
                if top.isObject {
                    guard b == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
                    index += 1
                    let object = w.takeObject(top)
                    value = try JSONTypedForm.value(of: object, valueOffset: valueStart, objectOffset: top.offset)
                } else {
                    guard b == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
                    index += 1
                    value = .array(w.takeArray(top))
                }
                w.containers.removeLast()
                valueStart = top.offset
            }
            return value
        }
    }

    /// One value; if it is an object (and not a typed value), only the keys `projection`
    /// accepts are built: the other keys' values are checked as ``scanValue`` would (the same
    /// errors at the same places) but not built.
    mutating func scanProjectedValue(_ workspace: inout JSONScanWorkspace, _ projection: JSONProjection) throws(JSONScanFailure) -> Value {
        skipWhitespace()
        let objectStart = index
        guard index < count, base[index] == UInt8(ascii: "{"), maximumDepth > 0 else { return try scanValue(&workspace) }
        index += 1
        skipWhitespace()
        // `{}`, and objects whose first key starts with `$` (which may be typed values): in full.
        guard index + 1 < count, base[index] == JSONScanner.quote, base[index + 1] != UInt8(ascii: "$") else {
            index = objectStart
            return try scanValue(&workspace)
        }
        var inner = self
        inner.index = index
        inner.maximumDepthForMembers()
        // The kept members, made one dictionary at the end with the workspace's shapes: records
        // of the same kept keys share one key list (built key by key, each record's would be its
        // own, and every thread evaluating would start from one shared empty shape).
        workspace.projectedKeys.removeAll(keepingCapacity: true)
        workspace.projectedValues.removeAll(keepingCapacity: true)
        while true {
            // The key: compared as bytes, made a String only when it is kept.
            guard inner.index < count, base[inner.index] == JSONScanner.quote else { throw inner.failure("expected a string key") }
            let keyStart = inner.index + 1
            var keyText: String? = nil
            var kept = false
            if let keyEnd = inner.simpleStringEnd(from: keyStart) {
                kept = projection.accepts(UnsafeBufferPointer(start: base + keyStart, count: keyEnd - keyStart))
                inner.index = keyEnd + 1
                if kept || workspace.collectingKeys {
                    keyText = String(decoding: UnsafeBufferPointer(start: base + keyStart, count: keyEnd - keyStart), as: UTF8.self)
                }
            } else {
                let key = try inner.scanString()
                kept = projection.keys.contains(key)
                keyText = key
            }
            inner.skipWhitespace()
            guard inner.index < count, base[inner.index] == UInt8(ascii: ":") else { throw inner.failure("expected ':'") }
            inner.index += 1
            if kept, let keyText {
                let value = try inner.scanValue(&workspace)
                workspace.projectedKeys.append(keyText)
                workspace.projectedValues.append(value)
            } else {
                if workspace.collectingKeys, let keyText { workspace.noteKeys(CollectionOfOne(keyText)) }
                try inner.skipValue(&workspace)
            }
            inner.skipWhitespace()
            guard inner.index < count else { throw inner.failure("unexpected end of JSON in an object") }
            let b = base[inner.index]
            if b == UInt8(ascii: ",") {
                inner.index += 1
                inner.skipWhitespace()
                continue
            }
            guard b == UInt8(ascii: "}") else { throw inner.failure("expected ',' or '}'") }
            inner.index += 1
            index = inner.index
            let object = workspace.shapes.dictionary(keys: workspace.projectedKeys, values: workspace.projectedValues)
            workspace.projectedKeys.removeAll(keepingCapacity: true)
            workspace.projectedValues.removeAll(keepingCapacity: true)
            return .dictionary(object)
        }
    }

    /// Members of an object are one level deeper.
    private mutating func maximumDepthForMembers() {
        self = JSONScanner(base: base, count: count, index: index, maximumDepth: maximumDepth - 1)
    }

    private init(base: UnsafePointer<UInt8>, count: Int, index: Int, maximumDepth: Int) {
        self.base = base
        self.count = count
        self.index = index
        self.maximumDepth = maximumDepth
    }

    /// The end (the closing quote) of a string without escapes starting at `from` (just after
    /// the opening quote); nil if it has an escape, a control character or invalid UTF-8, or
    /// does not end (the full scan then says what is wrong).
    @inline(__always)
    func simpleStringEnd(from start: Int) -> Int? {
        var i = start
        var high: UInt8 = 0
        while i < count {
            let b = base[i]
            if b == JSONScanner.quote {
                if high >= 0x80, firstInvalidUTF8(from: start, to: i) != nil { return nil }
                return i
            }
            if b == JSONScanner.backslash || b < 0x20 { return nil }
            high |= b
            i += 1
        }
        return nil
    }

    /// The offset of the first byte in `[start, end)` that does not belong to well-formed UTF-8
    /// (a stray continuation byte, a truncated or overlong sequence, a surrogate, a value past
    /// U+10FFFF), or nil when the bytes are UTF-8.
    func firstInvalidUTF8(from start: Int, to end: Int) -> Int? {
        var i = start
        while i < end {
            let b = base[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var scalar: UInt32
            let minimum: UInt32
            switch b {
            case 0xC2...0xDF: (length, scalar, minimum) = (2, UInt32(b & 0x1F), 0x80)
            case 0xE0...0xEF: (length, scalar, minimum) = (3, UInt32(b & 0x0F), 0x800)
            case 0xF0...0xF4: (length, scalar, minimum) = (4, UInt32(b & 0x07), 0x10000)
            default: return i
            }
            guard end - i >= length else { return i }
            for k in 1..<length {
                let c = base[i + k]
                guard c & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += length
        }
        return nil
    }

    /// Fails when the string bytes `[start, end)` are not UTF-8 (JSON text must be).
    @inline(__always)
    func checkUTF8(from start: Int, to end: Int) throws(JSONScanFailure) {
        if let bad = firstInvalidUTF8(from: start, to: end) {
            throw failure("invalid UTF-8 in a string (byte 0x\(String(base[bad], radix: 16, uppercase: true)); JSON text must be UTF-8)",
                          at: bad, ranOut: false)
        }
    }

    /// Checks one value as ``scanValue`` does — the same errors at the same offsets — without
    /// building it.
    mutating func skipValue(_ workspace: inout JSONScanWorkspace) throws(JSONScanFailure) {
        // Open containers: true for an object.
        var open = 0
        var isObject: [Bool] = []
        swap(&isObject, &workspace.skipStack)
        if !isObject.isEmpty { isObject.removeAll(keepingCapacity: true) }
        defer { swap(&isObject, &workspace.skipStack) }
        outer: while true {
            skipWhitespace()
            guard index < count else { throw failure("unexpected end of JSON") }
            switch base[index] {
            case UInt8(ascii: "{"):
                guard open < maximumDepth else { throw failure("JSON nested too deeply", ranOut: false) }
                let brace = index
                index += 1
                skipWhitespace()
                if index < count, base[index] == UInt8(ascii: "}") {
                    index += 1
                } else if index + 1 < count, base[index] == JSONScanner.quote, base[index + 1] == UInt8(ascii: "$") {
                    // Perhaps a typed value, whose string must be valid: scan it in full.
                    var full = JSONScanner(base: base, count: count, index: brace, maximumDepth: maximumDepth - open)
                    _ = try full.scanValue(&workspace)  // (its value stacks are not in use while skipping)
                    index = full.index
                } else {
                    try skipKey()
                    isObject.append(true)
                    open += 1
                    continue outer
                }
            case UInt8(ascii: "["):
                guard open < maximumDepth else { throw failure("JSON nested too deeply", ranOut: false) }
                index += 1
                skipWhitespace()
                if index < count, base[index] == UInt8(ascii: "]") {
                    index += 1
                } else {
                    isObject.append(false)
                    open += 1
                    continue outer
                }
            case JSONScanner.quote:
                try skipString()
            case UInt8(ascii: "t"):
                try scanLiteral("true")
            case UInt8(ascii: "f"):
                try scanLiteral("false")
            case UInt8(ascii: "n"):
                try scanLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                _ = try scanNumber()
            default:
                throw failure("unexpected character \(characterDescription(at: index))")
            }
            while let top = isObject.last {
                skipWhitespace()
                guard index < count else {
                    throw failure(top ? "unexpected end of JSON in an object" : "unexpected end of JSON in an array")
                }
                let b = base[index]
                if b == UInt8(ascii: ",") {
                    index += 1
                    if top {
                        skipWhitespace()
                        try skipKey()
                    }
                    continue outer
                }
                guard b == (top ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw failure(top ? "expected ',' or '}'" : "expected ',' or ']'")
                }
                index += 1
                isObject.removeLast()
                open -= 1
            }
            return
        }
    }

    /// ``scanKey`` without making the key.
    @inline(__always)
    mutating func skipKey() throws(JSONScanFailure) {
        guard index < count, base[index] == JSONScanner.quote else { throw failure("expected a string key") }
        try skipString()
        skipWhitespace()
        guard index < count, base[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
        index += 1
    }

    /// ``scanString`` without making the string (the same errors at the same offsets).
    mutating func skipString() throws(JSONScanFailure) {
        if let end = simpleStringEnd(from: index + 1) {
            index = end + 1
            return
        }
        index += 1
        let start = index
        while index < count {
            let b = base[index]
            if b == JSONScanner.quote {
                try checkUTF8(from: start, to: index)
                index += 1
                return
            }
            if b < 0x20 { throw failure("control character in a string") }
            guard b == JSONScanner.backslash else {
                index += 1
                continue
            }
            index += 1
            guard index < count else { break }
            switch base[index] {
            case JSONScanner.quote, JSONScanner.backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                break
            case UInt8(ascii: "u"):
                let value = try hex4(at: index + 1)
                index += 4
                // As scanEscapedString: an invalid escape after a high surrogate is the next escape's error.
                if (0xD800...0xDBFF).contains(value), index + 6 < count,
                   base[index + 1] == JSONScanner.backslash, base[index + 2] == UInt8(ascii: "u"),
                   let low = try? hex4(at: index + 3), (0xDC00...0xDFFF).contains(low) {
                    index += 6
                }
            default:
                throw failure("invalid escape in a string")
            }
            index += 1
        }
        throw failure("unterminated string")
    }

    /// `"key"` and the `:` after it (with whitespace), at `index`.
    @inline(__always)
    mutating func scanKey() throws(JSONScanFailure) -> String {
        guard index < count, base[index] == JSONScanner.quote else { throw failure("expected a string key") }
        let key = try scanString()
        skipWhitespace()
        guard index < count, base[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
        index += 1
        return key
    }

    mutating func scanLiteral(_ word: StaticString) throws(JSONScanFailure) {
        let length = word.utf8CodeUnitCount
        let w = word.utf8Start
        var i = 0
        while i < length {
            guard index + i < count else { throw failure("invalid literal", ranOut: true) }
            guard base[index + i] == w[i] else { throw failure("invalid literal") }
            i += 1
        }
        index += length
    }

    /// The character at `offset` (a whole UTF-8 sequence), quoted, for messages: a control
    /// character (U+0000 and the like, which a terminal would not show) by its code point, a
    /// byte that is not UTF-8 by its value.
    func characterDescription(at offset: Int) -> String {
        let first = base[offset]
        if first < 0x20 || first == 0x7F { return "U+\(String(format: "%04X", first))" }
        var end = offset + 1
        while end < count, end - offset < 4, base[end] & 0xC0 == 0x80 { end += 1 }
        guard let text = String(validating: UnsafeBufferPointer(start: base + offset, count: end - offset), as: UTF8.self) else {
            return "byte 0x\(String(first, radix: 16, uppercase: true))"
        }
        return "'\(text)'"
    }

    // MARK: Numbers

    /// `-?digits(.digits)?([eE][+-]?digits)?` (leading zeros are accepted). An integer that
    /// fits 64 bits is `.int`; anything else `.double`.
    mutating func scanNumber() throws(JSONScanFailure) -> Value {
        let start = index
        let negative = base[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // The digits as one decimal mantissa (exact while it has at most 19 significant digits)
        // and the number of them after the point.
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var fractionDigits = 0
        let digitsStart = index
        while index < count {
            let d = base[index] &- 0x30
            guard d < 10 else { break }
            if significantDigits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(d)
                if mantissa != 0 { significantDigits += 1 }
            } else {
                significantDigits += 1
            }
            index += 1
        }
        guard index > digitsStart else { throw failure("invalid number") }
        var isDouble = false
        if index < count, base[index] == UInt8(ascii: ".") {
            isDouble = true
            index += 1
            let fractionStart = index
            while index < count {
                let d = base[index] &- 0x30
                guard d < 10 else { break }
                if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    if mantissa != 0 { significantDigits += 1 }
                    fractionDigits += 1
                } else {
                    significantDigits += 1
                }
                index += 1
            }
            guard index > fractionStart else { throw failure("invalid number") }
        }
        var exponent = 0
        if index < count, base[index] | 0x20 == UInt8(ascii: "e") {
            isDouble = true
            index += 1
            var exponentNegative = false
            if index < count, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
                exponentNegative = base[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentStart = index
            while index < count {
                let d = base[index] &- 0x30
                guard d < 10 else { break }
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(d) }
                index += 1
            }
            guard index > exponentStart else { throw failure("invalid number") }
            if exponentNegative { exponent = -exponent }
        }
        if !isDouble, significantDigits <= 19 {
            if negative {
                if mantissa <= UInt64(Int64.max) { return .int(-Int64(mantissa)) }
                if mantissa == UInt64(Int64.max) + 1 { return .int(.min) }
            } else if mantissa <= UInt64(Int64.max) {
                return .int(Int64(mantissa))
            }
        }
        // Exact fast path (Clinger): a mantissa below 2^53 and a power of ten within 22 give a
        // correctly rounded double with one multiplication or division.
        let power = exponent - fractionDigits
        if significantDigits <= 15, power >= -22, power <= 22 {
            var d = Double(mantissa)
            if power < 0 { d /= JSONScanner.powersOfTen[-power] } else { d *= JSONScanner.powersOfTen[power] }
            return .double(negative ? -d : d)
        }
        return .double(parseDouble(from: start))
    }

    static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { a, _ in a * 10 } }

    /// The standard library's correctly rounded reading of the validated number text.
    func parseDouble(from start: Int) -> Double {
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        return Double(text) ?? .nan
    }

    // MARK: Strings

    /// A string at `index` (which is the opening quote).
    @inline(__always)
    mutating func scanString() throws(JSONScanFailure) -> String {
        index += 1
        let start = index
        var high: UInt8 = 0
        while index < count {
            let b = base[index]
            if b == JSONScanner.quote {
                if high >= 0x80 { try checkUTF8(from: start, to: index) }
                let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
                index += 1
                return text
            }
            if b == JSONScanner.backslash { return try scanEscapedString(from: start) }
            if b < 0x20 { throw failure("control character in a string") }
            high |= b
            index += 1
        }
        throw failure("unterminated string")
    }

    /// The rest of a string that has escapes; `start` is just after the opening quote.
    mutating func scanEscapedString(from start: Int) throws(JSONScanFailure) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(index - start + 16)
        out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
        while index < count {
            let b = base[index]
            if b == JSONScanner.quote {
                // Escapes are ASCII: the raw bytes are UTF-8 exactly when the string is.
                try checkUTF8(from: start, to: index)
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw failure("control character in a string") }
            guard b == JSONScanner.backslash else {
                out.append(b)
                index += 1
                continue
            }
            index += 1
            guard index < count else { break }
            switch base[index] {
            case JSONScanner.quote: out.append(0x22)
            case JSONScanner.backslash: out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var value = try hex4(at: index + 1)
                index += 4
                // A high surrogate and a low one make a pair. A `\u` after it that is not a valid
                // escape is read (and reported, at its own place) as the next escape, as it is
                // when the bytes after the high surrogate are not read yet.
                if (0xD800...0xDBFF).contains(value), index + 6 < count,
                   base[index + 1] == JSONScanner.backslash, base[index + 2] == UInt8(ascii: "u"),
                   let low = try? hex4(at: index + 3), (0xDC00...0xDFFF).contains(low) {
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                // A lone surrogate becomes U+FFFD.
                let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
                UTF8.encode(scalar) { out.append($0) }
            default:
                throw failure("invalid escape in a string")
            }
            index += 1
        }
        throw failure("unterminated string")
    }

    func hex4(at i: Int) throws(JSONScanFailure) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 {
            guard i + k < count else { throw failure("invalid \\u escape", at: index, ranOut: true) }
            let b = base[i + k]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: throw failure("invalid \\u escape", at: index, ranOut: false)
            }
            value = value << 4 | digit
        }
        return value
    }
}
