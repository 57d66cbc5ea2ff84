import SiftLanguage
import Testing
@testable import SiftEvaluation

/// The option sets every string table is run under, in this order.
let stringOptionColumns = ["", "c", "d", "cd", "n"]

func comparisonOptions(_ letters: String) -> ComparisonOptions { ComparisonOptions(letters: letters)! }

/// A string's scalars in hex, for exact (not canonical-equivalence) comparison and readable failures.
func scalarHex(_ s: String) -> String {
    s.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
}

/// Escapes a test string for a readable test name.
func displayed(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
        if u.isASCII && u.value >= 0x20 && u.value < 0x7F { out.unicodeScalars.append(u) } else { out += "\\u{\(String(u.value, radix: 16))}" }
    }
    return "\"" + out + "\""
}

/// One row of a table that gives the expected answer under each of `stringOptionColumns`.
struct StringOptionRow<Input: Sendable>: Sendable {
    let input: Input
    let expected: [Bool]  // one per stringOptionColumns entry
    init(_ input: Input, _ expected: [Bool]) {
        precondition(expected.count == stringOptionColumns.count)
        self.input = input
        self.expected = expected
    }
}

/// One (input, options, expected) case of an option table.
struct StringOptionCase<Input: Sendable>: Sendable, CustomTestStringConvertible {
    let input: Input
    let letters: String
    let expected: Bool
    let name: String
    var testDescription: String { name }
}

func expandOptionRows<Input>(_ rows: [StringOptionRow<Input>], name: (Input) -> String) -> [StringOptionCase<Input>] {
    rows.flatMap { row in
        stringOptionColumns.indices.map { i in
            StringOptionCase(input: row.input, letters: stringOptionColumns[i], expected: row.expected[i],
                       name: "\(name(row.input)) [\(stringOptionColumns[i])] → \(row.expected[i])")
        }
    }
}
