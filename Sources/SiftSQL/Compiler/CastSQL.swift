import SiftEvaluation
import SiftLanguage

/// `CAST(value, 'Type')` with the evaluator's conversions (`Cast.convert`):
///
/// - where SQL already holds the converted value, the value itself, of its new kind: a number
///   or a boolean as `NSNumber` (a boolean's 0/1, a decimal still a decimal), a date as
///   `NSNumber` (its REAL seconds since 2001), a double as `NSDate`, and any kind as itself;
/// - the text of a number, boolean, date, UUID or data (`NSString`), an integer or a decimal as
///   `NSDate` and a number as `NSDecimalNumber` (its canonical text, ``DecimalText``) through
///   the evaluator: `sift_cast(x, ?kind, ?type)`.
///
/// Conversions that may fail (text to a number, a date, a UUID, …) are left to the evaluator,
/// which reports the failure where it happens; so are object IDs.
extension ExpressionSQLCompiler {
    func cast(_ expression: ExpressionNode, to type: String, in scope: SQLScope) throws -> SQLFragment {
        let x = try materialised(try value(expression, in: scope))
        if x.kind == .null { return SQLFragment(expression: .null, kind: .null, nullable: true) }
        let nan = x.divergence.contains(.nanIsNull)
        func retyped(_ kind: SQLKind) -> SQLFragment {
            var result = x
            result.kind = kind
            return result
        }
        switch (CastType(name: type), x.kind) {
        case (.number?, .number(.boolean)):
            return retyped(.number(.integer))
        case (.number?, .number), (.decimalNumber?, .number(.decimal)):
            return x
        case (.number?, .date):
            return retyped(.number(.real))
        case (.string?, .string), (.date?, .date), (.data?, .data), (.uuid?, .uuid):
            return x
        case (.date?, .number(.real)) where !nan:
            return retyped(.date)
        case (.date?, .number(.integer)), (.date?, .number(.boolean)):
            // (The seconds as a double, which a dialect without Sift's functions converts as Swift does.)
            guard context.dialect.hasSiftFunctions else { return SQLFragment(expression: .cast(x.expression, "double precision"), kind: .date, nullable: x.nullable) }
            return try castCall(x, to: type, kind: .date)
        case (.string?, .number(.integer)), (.string?, .number(.boolean)):
            // (The decimal digits, 1 or 0 for a boolean; compared in code-point order.)
            guard context.dialect.hasSiftFunctions else {
                return SQLFragment(expression: .collate(.cast(x.expression, "text"), "BINARY"), kind: .string, nullable: x.nullable)
            }
            return try castCall(x, to: type, kind: .string)
        case (.string?, .number(.decimal)) where context.dialect.hasNumberFunctions:
            // A PostgreSQL store's decimal column holds the canonical text Sift wrote
            // (``DecimalText``), which `numeric` keeps and gives back: Foundation's description
            // of the decimal read from it, `NaN` included. (A computed decimal: the evaluator's.)
            guard let stored = x.storedWithNaN else { throw SQLUnsupported("CAST of \(x.kind) to \(type)") }
            return SQLFragment(expression: .collate(.cast(stored, "text"), "BINARY"), kind: .string, nullable: x.nullable)
        case (.string?, .number(.real)) where context.dialect.hasNumberFunctions:
            // Swift's text of the double, NaN and all (a stored double as it is stored).
            guard let value = x.withNaN else { throw SQLUnsupported("CAST of a computed value that may be NaN to NSString") }
            return SQLFragment(expression: .collate(.function(.provided(.number(.doubleText)), [value]), "BINARY"), kind: .string, nullable: x.nullable)
        case (.date?, .number) where !nan:
            return try castCall(x, to: type, kind: .date)
        case (.string?, .number) where !nan:
            return try castCall(x, to: type, kind: .string)
        case (.decimalNumber?, .number) where !nan:
            return try castCall(x, to: type, kind: .number(.decimal))
        case (.string?, .date), (.string?, .uuid), (.string?, .data):
            return try castCall(x, to: type, kind: .string)
        default:
            throw SQLUnsupported("CAST of \(x.kind) to \(type)")
        }
    }

    /// `sift_cast(x, ?kind, ?type)`.
    private func castCall(_ x: SQLFragment, to type: String, kind: SQLKind) throws -> SQLFragment {
        guard let letter = SQLArgumentKind(x.kind) else { throw SQLUnsupported("CAST of \(x.kind) to \(type)") }
        let call = SQLExpression.function(.provided(.registered(.cast)), [x.expression, context.bind(.text(String(letter.rawValue))), context.bind(.text(type))])
        return SQLFragment(expression: call, kind: kind, nullable: x.nullable)
    }
}
