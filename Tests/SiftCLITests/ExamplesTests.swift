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
        let arguments = try JSONSerialization.jsonObject(with: Data(row.arguments.utf8), options: [.fragmentsAllowed]) as? [Any] ?? []
        var command = ["parse", row.format]
        for argument in arguments {
            let data = try JSONSerialization.data(withJSONObject: argument, options: [.fragmentsAllowed])
            command += ["--arg", String(decoding: data, as: UTF8.self)]
        }
        let result = try SiftBinary.run(arguments: command)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == row.canonical + "\n")
        // The canonical form is itself a fixed point.
        let again = try SiftBinary.run("parse", row.canonical)
        #expect(again.stdout == row.canonical + "\n")
    }
}
