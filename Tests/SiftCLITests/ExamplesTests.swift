import Foundation
import Testing

/// Examples/seed-predicates.tsv: the seed apps' predicates parse to their recorded canonical forms.
@Suite("Examples")
struct ExamplesTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Row: Sendable, CustomTestStringConvertible {
        let id: String, format: String, arguments: String, canonical: String
        var testDescription: String { id }
    }

    static let rows: [Row] = {
        let url = packageRoot.appendingPathComponent("Examples/seed-predicates.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Row(id: fields[0], format: fields[1], arguments: fields[2], canonical: fields[3])
        }
    }()

    @Test func theExamplesFileIsThere() {
        #expect(Self.rows.count >= 15)
    }

    @Test(arguments: rows)
    func seedPredicateParsesToItsCanonicalForm(_ row: Row) throws {
        var command = ["parse", row.format]
        for argument in Self.elements(ofJSONArray: row.arguments) {
            command += ["--arg", argument]
        }
        let result = try SiftBinary.run(arguments: command)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == row.canonical + "\n")
        // The canonical form is itself a fixed point.
        let again = try SiftBinary.run("parse", row.canonical)
        #expect(again.stdout == row.canonical + "\n")
    }

    /// The texts of a JSON array's elements, as written (so `8.0` stays a double).
    static func elements(ofJSONArray text: String) -> [String] {
        let inner = text.trimmingCharacters(in: .whitespaces).dropFirst().dropLast()
        var elements: [String] = []
        var current = ""
        var depth = 0
        var inString = false
        var escaped = false
        for ch in inner {
            if inString {
                if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false }
            } else if ch == "\"" {
                inString = true
            } else if ch == "[" || ch == "{" {
                depth += 1
            } else if ch == "]" || ch == "}" {
                depth -= 1
            } else if ch == ",", depth == 0 {
                elements.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            }
            current.append(ch)
        }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { elements.append(last) }
        return elements
    }

    @Test func splitsJSONArraysAsWritten() {
        #expect(Self.elements(ofJSONArray: #"["a,b", {"$date": "x"}, 8.0, [1, 2]]"#) == [#""a,b""#, #"{"$date": "x"}"#, "8.0", "[1, 2]"])
        #expect(Self.elements(ofJSONArray: "[]") == [])
    }
}
