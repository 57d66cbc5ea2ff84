import Foundation

/// Prints predicates and expressions in canonical form (LANGUAGE.md §7), with the fewest
/// parentheses the ``Precedence`` table allows. For every predicate `p`,
/// `try PredicateNode(format: CanonicalPrinter.format(p)) == p`.
public enum CanonicalPrinter {
    public static func format(_ predicate: PredicateNode) -> String {
        var out = ""
        write(predicate, to: &out)
        return out
    }

    public static func format(_ expression: ExpressionNode) -> String {
        var out = ""
        write(expression, minimum: .assignment, to: &out)
        return out
    }

    public static func format(_ constant: ConstantValue) -> String {
        var out = ""
        write(constant, to: &out)
        return out
    }

    // MARK: Predicates

    static func write(_ predicate: PredicateNode, to out: inout String) {
        switch predicate.kind {
        case .constant(let value):
            out += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let c):
            if let keyword = c.modifier.keyword { out += keyword; out += " " }
            write(c.left, minimum: .assignment, to: &out)
            out += " "
            out += c.operator.symbol
            if !c.options.isEmpty { out += "["; out += c.options.letters; out += "]" }
            out += " "
            write(c.right, minimum: .assignment, to: &out)
        case .and(let operands), .or(let operands):
            let separator = if case .and = predicate.kind { " AND " } else { " OR " }
            for (index, operand) in operands.enumerated() {
                if index > 0 { out += separator }
                writeOperand(operand, to: &out)
            }
        case .not(let operand):
            out += "NOT "
            writeOperand(operand, to: &out)
        }
    }

    /// A sub-predicate of AND, OR or NOT: compounds in parentheses, comparisons bare.
    private static func writeOperand(_ predicate: PredicateNode, to out: inout String) {
        switch predicate.kind {
        case .constant, .comparison:
            write(predicate, to: &out)
        case .and, .or, .not:
            out += "("
            write(predicate, to: &out)
            out += ")"
        }
    }

    // MARK: Expressions

    static func write(_ expression: ExpressionNode, minimum: Precedence, to out: inout String) {
        if Precedence.of(expression) < minimum {
            out += "("
            write(expression, minimum: .assignment, to: &out)
            out += ")"
            return
        }
        switch expression.kind {
        case .constant(let value):
            write(value, to: &out)
        case .evaluatedObject:
            out += "SELF"
        case .keyPath(let base, let keys):
            if let base {
                write(base, minimum: .postfix, to: &out)
                out += "."
                out += keys.map(formatKeyAfterDot).joined(separator: ".")
            } else {
                for (index, key) in keys.enumerated() {
                    if index > 0 { out += "."; out += formatKeyAfterDot(key) } else { out += formatKey(key) }
                }
            }
        case .variable(let name):
            out += "$"
            out += escapeIdentifier(name)
        case .aggregate(let elements):
            out += "{"
            writeList(elements, to: &out)
            out += "}"
        case .dictionary(let entries):
            // `{:}` is the empty dictionary (`{}` is the empty aggregate).
            guard !entries.isEmpty else { out += "{:}"; return }
            out += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 { out += ", " }
                out += formatString(entry.key)
                out += ": "
                write(entry.value, minimum: .assignment, to: &out)
            }
            out += "}"
        case .index(let base, let sub):
            write(base, minimum: .postfix, to: &out)
            switch sub {
            case .first: out += "[FIRST]"
            case .last: out += "[LAST]"
            case .size: out += "[SIZE]"
            case .expression(let e):
                out += "["
                write(e, minimum: .assignment, to: &out)
                out += "]"
            }
        case .function(let name, let arguments):
            out += name
            out += "("
            writeList(arguments, to: &out)
            out += ")"
        case .functionExpression(let receiver, let selector, let arguments):
            out += "FUNCTION("
            write(receiver, minimum: .assignment, to: &out)
            out += ", "
            out += formatString(selector)
            for argument in arguments {
                out += ", "
                write(argument, minimum: .assignment, to: &out)
            }
            out += ")"
        case .subquery(let collection, let variable, let predicate):
            out += "SUBQUERY("
            write(collection, minimum: .assignment, to: &out)
            out += ", $"
            out += escapeIdentifier(variable)
            out += ", "
            write(predicate, to: &out)
            out += ")"
        case .ternary(let condition, let then, let otherwise):
            out += "TERNARY("
            write(condition, to: &out)
            out += ", "
            write(then, minimum: .assignment, to: &out)
            out += ", "
            write(otherwise, minimum: .assignment, to: &out)
            out += ")"
        case .cast(let value, let type):
            out += "CAST("
            write(value, minimum: .assignment, to: &out)
            out += ", "
            out += formatString(type)
            out += ")"
        case .assignment(let variable, let value):
            out += "$"
            out += escapeIdentifier(variable)
            out += " := "
            write(value, minimum: Precedence.assignment.tighter, to: &out)
        case .unary(let op, let operand):
            out += op.symbol
            // `-7` would read back as the constant -7, not as negation of 7.
            if op == .negate, let constant = operand.constantValue, constant.isNumeric {
                out += "("
                write(operand, minimum: .assignment, to: &out)
                out += ")"
            } else {
                write(operand, minimum: .unary, to: &out)
            }
        case .binary(let op, let left, let right):
            let level = Precedence.of(op)
            let rightAssociative = Precedence.isRightAssociative(op)
            write(left, minimum: rightAssociative ? level.tighter : level, to: &out)
            out += " "
            out += op.symbol
            out += " "
            write(right, minimum: rightAssociative ? level : level.tighter, to: &out)
        }
    }

    private static func writeList(_ expressions: [ExpressionNode], to out: inout String) {
        for (index, expression) in expressions.enumerated() {
            if index > 0 { out += ", " }
            write(expression, minimum: .assignment, to: &out)
        }
    }

    // MARK: Constants

    static func write(_ constant: ConstantValue, to out: inout String) {
        switch constant {
        case .null: out += "nil"
        case .bool(let b): out += b ? "1" : "0"
        case .int(let i): out += String(i)
        case .double(let d): out += formatDouble(d)
        case .decimal(let d): out += "CAST(\(formatString(d.description)), \"NSDecimalNumber\")"
        case .string(let s): out += formatString(s)
        case .date(let date):
            out += "CAST("
            out += formatDouble(date.timeIntervalSinceReferenceDate)
            out += ", \"NSDate\")"
        case .data(let data): out += "CAST(\(formatString(data.base64EncodedString())), \"NSData\")"
        case .uuid(let uuid): out += "CAST(\(formatString(uuid.uuidString)), \"NSUUID\")"
        case .objectID(let id): out += "CAST(\(formatString(id.rawValue)), \"NSManagedObjectID\")"
        }
    }

    /// The shortest text that reads back as the same double, always with a `.` or an exponent:
    /// `2.0`, `0.1`, `1e+100`. Infinities print as `1e999` / `-1e999` (which overflow back to them).
    public static func formatDouble(_ d: Double) -> String {
        if d.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
        if d.isInfinite { return d < 0 ? "-1e999" : "1e999" }
        return d.description
    }

    /// A string literal: double quotes; `"`, `\` and control characters escaped; other
    /// characters (non-ASCII included) as they are.
    public static func formatString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += unicodeEscape(scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
        return out
    }

    /// The first key of a key path: `name`, `#size` (reserved words), `@count`,
    /// `#1st` (keys that do not start like an identifier), `caf\u00E9` (other characters escaped).
    public static func formatKey(_ key: String) -> String {
        if key.hasPrefix("@"), key.count > 1 { return "@" + escapeIdentifier(String(key.dropFirst())) }
        guard let first = key.unicodeScalars.first, isIdentifierStart(first), !Keyword.isReserved(key) else {
            return "#" + escapeIdentifier(key)
        }
        return escapeIdentifier(key)
    }

    /// A key after a `.`: reserved words need no `#` there.
    static func formatKeyAfterDot(_ key: String) -> String {
        if key.hasPrefix("@"), key.count > 1 { return "@" + escapeIdentifier(String(key.dropFirst())) }
        guard let first = key.unicodeScalars.first, isIdentifierStart(first) else { return "#" + escapeIdentifier(key) }
        return escapeIdentifier(key)
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar == "_" || (scalar.properties.isAlphabetic))
    }

    /// Letters, digits and `_` as they are; every other character as `\uXXXX` (surrogate pairs
    /// beyond the Basic Multilingual Plane).
    static func escapeIdentifier(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII, ByteClass.isIdentifierByte[Int(scalar.value)] {
                out.unicodeScalars.append(scalar)
            } else if scalar.value > 0xFFFF {
                let v = scalar.value - 0x10000
                out += unicodeEscape(0xD800 + (v >> 10))
                out += unicodeEscape(0xDC00 + (v & 0x3FF))
            } else {
                out += unicodeEscape(scalar.value)
            }
        }
        return out
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
