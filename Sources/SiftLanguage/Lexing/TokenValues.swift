/// Decoding of token values from bytes: identifiers and keys (with `\uXXXX` escapes), string
/// literals (with backslash escapes) and numbers.
extension Lexer {
    /// The text of bytes[start..<end], with `\uXXXX` escapes (and surrogate pairs) decoded when
    /// `escapes` is set. Used for identifiers, keys and variable names.
    func identifierText(_ start: Int, _ end: Int, escapes: Bool) throws(ParseError) -> String {
        if !escapes { return String(decoding: bytes[start..<end], as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var i = start
        var pendingHigh: (value: UInt32, at: Int)?
        while i < end {
            if bytes[i] == UInt8(ascii: "\\") {
                let value = hex4(at: i + 2)
                try appendEscaped(value, at: i, to: &scalars, pendingHigh: &pendingHigh)
                i += 6
            } else {
                if let pending = pendingHigh { throw loneSurrogate(at: pending.at) }
                scalars.append(Unicode.Scalar(bytes[i]))
                i += 1
            }
        }
        if let pending = pendingHigh { throw loneSurrogate(at: pending.at) }
        return String(scalars)
    }

    /// The value of a string literal token, without its quotes, escapes decoded.
    func stringValue(_ token: Token) throws(ParseError) -> String {
        let start = token.start + 1
        let end = token.end - 1
        if !token.hasEscapes { return String(decoding: bytes[start..<end], as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(end - start)
        var i = start
        var pendingHigh: (value: UInt32, at: Int)?
        while i < end {
            let b = bytes[i]
            guard b == UInt8(ascii: "\\") else {
                if let pending = pendingHigh { throw loneSurrogate(at: pending.at) }
                output.append(b)
                i += 1
                continue
            }
            let escaped = bytes[i + 1]
            if escaped == UInt8(ascii: "u") {
                var scalars = String.UnicodeScalarView()
                try appendEscaped(hex4(at: i + 2), at: i, to: &scalars, pendingHigh: &pendingHigh)
                output.append(contentsOf: String(scalars).utf8)
                i += 6
                continue
            }
            if let pending = pendingHigh { throw loneSurrogate(at: pending.at) }
            switch escaped {
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "0"): output.append(0x00)
            default: output.append(escaped)  // \" \' \\ (the lexer allowed no others)
            }
            i += 2
        }
        if let pending = pendingHigh { throw loneSurrogate(at: pending.at) }
        return String(decoding: output, as: UTF8.self)
    }

    private func hex4(at i: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 { value = value << 4 | UInt32(Lexer.hexValue(bytes[i + k]) ?? 0) }
        return value
    }

    private func loneSurrogate(at offset: Int) -> ParseError {
        ParseError(.invalidEscape, "a \\u escape names half of a surrogate pair without the other half", source: source, offset: offset, length: 6)
    }

    /// Appends the scalar of one `\uXXXX` escape, pairing UTF-16 surrogates.
    private func appendEscaped(
        _ value: UInt32, at offset: Int, to scalars: inout String.UnicodeScalarView,
        pendingHigh: inout (value: UInt32, at: Int)?
    ) throws(ParseError) {
        if let high = pendingHigh {
            guard (0xDC00...0xDFFF).contains(value) else { throw loneSurrogate(at: high.at) }
            let combined = 0x10000 + ((high.value - 0xD800) << 10) + (value - 0xDC00)
            if let scalar = Unicode.Scalar(combined) { scalars.append(scalar) }
            pendingHigh = nil
        } else if (0xD800...0xDBFF).contains(value) {
            pendingHigh = (value, offset)
        } else if let scalar = Unicode.Scalar(value) {
            scalars.append(scalar)
        } else {
            throw loneSurrogate(at: offset)
        }
    }

    /// An integer literal's value: a 64-bit integer, or a double when it does not fit.
    func integerValue(_ token: Token) -> ConstantValue {
        var i = token.start
        var radix: UInt64 = 10
        if token.end - i > 2, bytes[i] == UInt8(ascii: "0") {
            switch bytes[i + 1] | 0x20 {
            case UInt8(ascii: "x"): radix = 16; i += 2
            case UInt8(ascii: "o"): radix = 8; i += 2
            case UInt8(ascii: "b"): radix = 2; i += 2
            default: break
            }
        }
        var value: UInt64 = 0
        var overflow = false
        var asDouble = 0.0
        while i < token.end {
            let digit = UInt64(Lexer.hexValue(bytes[i]) ?? 0)
            if !overflow {
                let (m, o1) = value.multipliedReportingOverflow(by: radix)
                let (a, o2) = m.addingReportingOverflow(digit)
                if o1 || o2 || a > UInt64(Int64.max) {
                    overflow = true
                    asDouble = Double(value) * Double(radix) + Double(digit)
                } else {
                    value = a
                }
            } else {
                asDouble = asDouble * Double(radix) + Double(digit)
            }
            i += 1
        }
        if overflow {
            if radix == 10 { return .double(Double(String(decoding: bytes[token.start..<token.end], as: UTF8.self)) ?? asDouble) }
            return .double(asDouble)
        }
        return .int(Int64(value))
    }

    /// A negative integer literal (`-` folded into the number): handles Int64.min exactly.
    func negativeIntegerValue(_ token: Token) -> ConstantValue {
        switch integerValue(token) {
        case .int(let v): return .int(-v)
        case .double(let d):
            // 9223372036854775808 does not fit in Int64 but its negation does.
            if d == 9223372036854775808.0, isDecimalLiteral(token),
               String(decoding: bytes[token.start..<token.end], as: UTF8.self) == "9223372036854775808"
            {
                return .int(Int64.min)
            }
            return .double(-d)
        default: return .int(0)
        }
    }

    private func isDecimalLiteral(_ token: Token) -> Bool {
        !(token.end - token.start > 2 && bytes[token.start] == UInt8(ascii: "0") && !(ByteClass.table[Int(bytes[token.start + 1])] == .digit))
    }

    /// A double literal's value.
    func doubleValue(_ token: Token) -> Double {
        Double(String(decoding: bytes[token.start..<token.end], as: UTF8.self)) ?? .nan
    }
}
