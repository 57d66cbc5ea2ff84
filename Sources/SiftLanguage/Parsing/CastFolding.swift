import Foundation

/// Folds `CAST(<constant>, '<type>')` into a constant where the type names a constant kind with
/// no literal syntax of its own: dates, decimals, data, UUIDs and object IDs. This is how their canonical
/// forms (`CAST(636725167.0, "NSDate")`, ...) read back as the same constants.
///
/// A cast that cannot convert (an invalid ISO 8601 string, say) is left as a CAST node: the
/// evaluator reports it before evaluating any object.
enum CastFolding {
    static func fold(_ node: ExpressionNode) -> ExpressionNode {
        guard case .cast(let value, let type) = node.kind, case .constant(let constant) = value.kind else { return node }
        let folded: ConstantValue?
        switch (CastType(name: type), constant) {
        case (.date?, .int(let seconds)): folded = .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        // Booleans are the numbers 1 and 0 (and print as them).
        case (.date?, .bool(let b)): folded = .date(Date(timeIntervalSinceReferenceDate: b ? 1 : 0))
        case (.date?, .double(let seconds)) where seconds.isFinite: folded = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (.date?, .string(let text)): folded = ISO8601.date(from: text).map(ConstantValue.date)
        case (.decimalNumber?, .string(let text)) where isDecimalNumeral(text):
            folded = Decimal(string: text, locale: nil).flatMap { $0.isNaN ? nil : ConstantValue.decimal($0) }
        case (.data?, .string(let text)): folded = Data(base64Encoded: text).map(ConstantValue.data)
        case (.uuid?, .string(let text)): folded = UUID(uuidString: text).map(ConstantValue.uuid)
        case (.managedObjectID?, .string(let text)): folded = .objectID(ObjectID(text))
        default: folded = nil
        }
        guard let folded else { return node }
        return ExpressionNode(.constant(folded), range: node.range)
    }

    /// `-12.5`, `3`, `1e-7`: what Decimal(string:) reads completely.
    static func isDecimalNumeral(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            var n = 0
            while let b = bytes.first, b >= 0x30, b <= 0x39 { bytes.removeFirst(); n += 1 }
            return n
        }
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes.removeFirst() }
        guard digits() > 0 else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            guard digits() > 0 else { return false }
        }
        if let e = bytes.first, e | 0x20 == UInt8(ascii: "e") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
