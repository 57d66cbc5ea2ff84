import Foundation
import Testing

/// Input at the edges (issue 29, item 12): values JSON has no number for, bytes that are not
/// text, line ends of other systems, files that are not what their name says, and imports
/// that fail: each gets a clear answer, and a failure leaves nothing behind.
@Suite struct InputEdgeCommandTests {
    /// A directory of the test's own, removed when `body` returns.
    static func inDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-edges-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    // MARK: Doubles JSON has no number for

    /// Infinities (and NaN) are written in the typed form `sift import` reads back, so an
    /// export imports as the same values (they were `null`, and came back nil).
    @Test func infinitiesRoundTripThroughJSONOutputAndImport() throws {
        try Self.inDirectory { directory in
            let data = directory.appendingPathComponent("d.jsonl")
            try Self.write("{\"@id\": \"a\", \"x\": 1.5}\n{\"@id\": \"b\", \"x\": 1e999}\n{\"@id\": \"c\", \"x\": -1e999}\n", to: data)
            let first = directory.appendingPathComponent("first.sqlite").path
            let imported = try SiftBinary.run("import", "--store", first, "--entity", "D", data.path)
            #expect(imported.status == 0, "\(imported.stderr)")
            for (format, file) in [("jsonl", "out.jsonl"), ("json", "out.json")] {
                let exported = try SiftBinary.run("query", "--store", first, "D SORT BY x", "--output", format)
                #expect(exported.status == 0, "\(exported.stderr)")
                #expect(exported.stdout.contains(#"{"$double":"1e999"}"#) && exported.stdout.contains(#"{"$double":"-1e999"}"#), "\(exported.stdout)")
                #expect(!exported.stdout.contains("null"), "\(exported.stdout)")
                let out = directory.appendingPathComponent(file)
                try Self.write(exported.stdout, to: out)
                let second = directory.appendingPathComponent("second-\(format).sqlite").path
                let model = directory.appendingPathComponent("model.json").path
                _ = try? FileManager.default.removeItem(atPath: model)
                let modelText = #"{"entities": [{"name": "D", "attributes": [{"name": "x", "type": "Double"}]}]}"#
                try Self.write(modelText, to: URL(fileURLWithPath: model))
                // (A JSON array of records is read as JSON Lines are.)
                let back = try SiftBinary.run("import", "--store", second, "--model", model, "--format", "jsonl", out.path, "--entity", "D")
                #expect(back.status == 0, "\(back.stderr)")
                let again = try SiftBinary.run("query", "--store", second, "D SORT BY x", "--output", "jsonl")
                let before = try SiftBinary.run("query", "--store", first, "D SORT BY x", "--output", "jsonl")
                #expect(again.stdout == before.stdout)
                let infinite = try SiftBinary.run("query", "--store", second, "D WHERE x > 1e300", "--output", "jsonl")
                #expect(infinite.stdout == #"{"@entity":"D","@id":"b","x":{"$double":"1e999"}}"# + "\n")
            }
        }
    }

    /// A NaN an expression makes is written so too; `sift filter` reads the typed form back.
    @Test func typedDoublesFilterAsDoubles() throws {
        let result = try SiftBinary.run("filter", "x > 1e308", stdin: "{\"x\": {\"$double\": \"1e999\"}}\n{\"x\": 2}\n{\"x\": {\"$double\": \"NaN\"}}\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""$double": "1e999""#) && !result.stdout.contains("NaN"), "\(result.stdout)")
    }

    // MARK: JSON Lines with a NUL

    /// A NUL between records is one error at one position (it named the record before it as
    /// well), and the character is named, not printed.
    @Test(arguments: [
        ("{\"a\": 1}\n\0\n{\"a\": 2}\n", "line 2, column 1"),
        ("{\"a\": 1}\0{\"a\": 2}\n", "line 1, column 9"),
        ("{\"a\": 1}\n{\"a\": 2}\n\0", "line 3, column 1"),
    ])
    func aNULBetweenJSONLinesRecordsHasOnePosition(_ text: String, _ position: String) throws {
        try Self.inDirectory { directory in
            let data = directory.appendingPathComponent("nul.jsonl")
            try Data(text.utf8).write(to: data)
            for store in ["new.sqlite", "existing.sqlite"] {
                let path = directory.appendingPathComponent(store).path
                if store == "existing.sqlite" {
                    try Self.write("{\"a\": 0}\n", to: directory.appendingPathComponent("ok.jsonl"))
                    _ = try SiftBinary.run("import", "--store", path, "--entity", "Q", directory.appendingPathComponent("ok.jsonl").path)
                }
                let result = try SiftBinary.run("import", "--store", path, "--entity", "Q", data.path)
                #expect(result.status == 1)
                #expect(result.stderr.components(separatedBy: "line ").count == 2, "\(result.stderr)")
                #expect(result.stderr.contains("\(position): unexpected character U+0000"), "\(result.stderr)")
                #expect(!result.stderr.contains("\0"))
            }
        }
    }
}
