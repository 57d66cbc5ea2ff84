import Foundation
import Testing

/// `sift filter --jobs N`: JSON Lines read in chunks on N threads print exactly what one thread
/// prints — standard output, standard error and the exit status — whatever the input's shape
/// (lines straddling chunk boundaries, malformed lines, empty lines, no final newline, CRLF,
/// pretty-printed values cut inside, an array), the format and the options. Chunks are made
/// tiny (SIFT_FILTER_CHUNK_BYTES, an internal knob) so small inputs are cut many times.
@Suite("sift filter --jobs")
struct FilterJobsTests {
    /// Records of different lengths (some longer than a chunk), so cuts fall everywhere.
    static let records: [String] = (0..<60).map(record)

    static func record(_ i: Int) -> String {
        let padding = String(repeating: "é", count: (i * 7) % 23)
        let tags: String = (0..<(i % 4)).map { (t: Int) -> String in "\"t\(t)\"" }.joined(separator: ", ")
        let city: String = ["Berlin", "Paris", "Rome"][i % 3]
        let age: Int = (i * 37) % 90
        return "{\"id\": \(i), \"name\": \"n\(i)\(padding)\", \"age\": \(age), \"city\": \"\(city)\", \"tags\": [\(tags)]}"
    }

    static let jsonLines = records.joined(separator: "\n") + "\n"

    /// The inputs: name, text.
    static let inputs: [(String, String)] = makeInputs()

    static func joined(_ lines: [String], _ separator: String = "\n") -> String { lines.joined(separator: separator) }

    static func replacing(_ index: Int, with line: String) -> String {
        var lines = records
        lines[index] = line
        return joined(lines) + "\n"
    }

    static func makeInputs() -> [(String, String)] {
        var inputs: [(String, String)] = []
        inputs.append(("json lines", jsonLines))
        inputs.append(("no final newline", joined(records)))
        var withEmpty: [String] = []
        for (i, record) in records.enumerated() { withEmpty.append(i % 5 == 0 ? "\n\n" + record : record) }
        inputs.append(("empty lines", joined(withEmpty) + "\n\n"))
        inputs.append(("crlf", joined(records, "\r\n") + "\r\n"))
        inputs.append(("malformed line 31", replacing(30, with: #"{"id": 30, "age": }"#)))
        inputs.append(("unterminated last value", joined(Array(records.prefix(40))) + "\n{\"id\": 99, \"age\": 50"))
        inputs.append(("evaluation error line 41", replacing(40, with: #"{"id": 40, "age": "old"}"#)))
        inputs.append(("pretty-printed", joined(records.prefix(30).map(pretty)) + "\n"))
        let unindented: [String] = records.prefix(20).map { pretty($0).replacingOccurrences(of: "\n  ", with: "\n") }
        inputs.append(("pretty, unindented", joined(unindented) + "\n"))
        var several: [String] = []
        for i in stride(from: 0, to: 60, by: 3) { several.append(records[i] + records[i + 1] + " " + records[i + 2]) }
        inputs.append(("several values a line", joined(several) + "\n"))
        inputs.append(("byte order mark", "\u{FEFF}" + jsonLines))
        inputs.append(("byte order mark on line 11", replacing(10, with: "\u{FEFF}" + records[10])))
        inputs.append(("scalars and arrays", "1\n\"two\"\n[{\"age\": 50}, {\"age\": 10}]\n{\"age\": 70}\n3.5\n"))
        inputs.append(("an array", "[" + joined(records, ",\n") + "]\n"))
        inputs.append(("empty", ""))
        inputs.append(("whitespace", "  \n\n  \n"))
        return inputs
    }

    static func pretty(_ record: String) -> String {
        let object = try! JSONSerialization.jsonObject(with: Data(record.utf8))
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func filter(_ arguments: [String], stdin: String, jobs: Int, chunkBytes: Int = 64) throws -> SiftBinary.Result {
        var environment = SiftBinary.environment
        environment["SIFT_FILTER_CHUNK_BYTES"] = String(chunkBytes)
        return try SiftBinary.run(arguments: ["filter"] + arguments + ["--jobs", String(jobs)], stdin: stdin, environment: environment)
    }

    /// Asserts that `--jobs` 2 and 7 print what `--jobs 1` prints.
    static func expectSameAsOneJob(_ arguments: [String], stdin: String, chunkBytes: Int = 64,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let one = try filter(arguments, stdin: stdin, jobs: 1, chunkBytes: chunkBytes)
        for jobs in [2, 7] {
            let many = try filter(arguments, stdin: stdin, jobs: jobs, chunkBytes: chunkBytes)
            #expect(many.stdout == one.stdout, "--jobs \(jobs) \(arguments): standard output", sourceLocation: sourceLocation)
            #expect(many.stderr == one.stderr, "--jobs \(jobs) \(arguments): standard error", sourceLocation: sourceLocation)
            #expect(many.status == one.status, "--jobs \(jobs) \(arguments): status", sourceLocation: sourceLocation)
        }
    }

    @Test("every input, in every format, prints as one job does", arguments: inputs.map(\.0))
    func inputsInEveryFormat(_ name: String) throws {
        let input = Self.inputs.first { $0.0 == name }!.1
        for format in ["json", "jsonl", "table", "csv", "indices", "box", "line", "markdown"] {
            try Self.expectSameAsOneJob(["age >= 45", "--output", format], stdin: input)
        }
    }

    @Test("options print as one job does", arguments: [
        ["age > 20", "--limit", "5"],
        ["age > 20", "--offset", "7", "--limit", "4", "--output", "indices"],
        ["age > 20", "--count"],
        ["age > 20", "--count", "--limit", "3", "--offset", "2"],
        ["age > 20", "--sort", "age DESC, id", "--limit", "10", "--output", "jsonl"],
        ["age > 20", "--section-by", "city", "--output", "jsonl"],
        ["age > 20", "--section-by", "city", "--output", "indices"],
        ["age > 20", "--select", "name,city", "--output", "jsonl"],
        ["ANY tags == 't2'", "--output", "jsonl"],
        ["agee > 20 OR cty == 'Rome'", "--output", "jsonl"],
        ["address.city == 'Rome'", "--output", "jsonl"],
        ["name BEGINSWITH[c] 'N1' AND name MATCHES '.*é.*'", "--output", "jsonl"],
    ])
    func options(_ arguments: [String]) throws {
        try Self.expectSameAsOneJob(arguments, stdin: Self.jsonLines)
    }

    @Test("an error after the limit is not reached by one job nor by many")
    func errorAfterLimit() throws {
        let input = Self.records.prefix(50).joined(separator: "\n") + "\n{\"age\": \n" + Self.jsonLines
        try Self.expectSameAsOneJob(["age > 20", "--limit", "3", "--output", "jsonl"], stdin: input)
        let many = try Self.filter(["age > 20", "--limit", "3", "--output", "jsonl"], stdin: input, jobs: 2)
        #expect(many.status == 0)
    }

    @Test("chunk sizes from one byte to more than the input", arguments: [1, 7, 100, 1000, 1 << 20])
    func chunkSizes(_ chunkBytes: Int) throws {
        try Self.expectSameAsOneJob(["age < 30", "--output", "jsonl"], stdin: Self.jsonLines, chunkBytes: chunkBytes)
        try Self.expectSameAsOneJob(["age < 30", "--output", "indices"], stdin: Self.inputs[7].1, chunkBytes: chunkBytes)
    }

    @Test("the matches are the records the predicate holds for, in input order")
    func matchesInOrder() throws {
        let result = try Self.filter(["age >= 45", "--output", "indices"], stdin: Self.jsonLines, jobs: 3, chunkBytes: 50)
        let expected = (0..<60).filter { ($0 * 37) % 90 >= 45 }
        #expect(result.stdout == "[" + expected.map(String.init).joined(separator: ", ") + "]\n")
        #expect(result.status == 0)
    }

    @Test("errors name the line in the whole input")
    func errorLines() throws {
        let malformed = Self.inputs.first { $0.0 == "malformed line 31" }!.1
        let result = try Self.filter(["age >= 0", "--output", "jsonl"], stdin: malformed, jobs: 4, chunkBytes: 10)
        #expect(result.stderr == "error: <stdin>: line 31, column 19: unexpected character '}'\n")
        #expect(result.stdout.split(separator: "\n").count == 30)
        let evaluation = Self.inputs.first { $0.0 == "evaluation error line 41" }!.1
        let failed = try Self.filter(["age + 1 > 0", "--output", "jsonl"], stdin: evaluation, jobs: 4, chunkBytes: 10)
        #expect(failed.stderr.hasPrefix("error: <stdin>: line 41: "))
        #expect(failed.status == 1)
    }

    @Test("--jobs must be 1 or more", arguments: ["0", "-1", "-2"])
    func jobsMustBePositive(_ jobs: String) throws {
        let result = try SiftBinary.run(arguments: ["filter", "age > 1", "--jobs=\(jobs)"], stdin: Self.jsonLines)
        #expect(result.status == 64, "a usage error")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--jobs must be 1 or more (threads; the default is the "))
        #expect(result.stderr.contains("not \(jobs)"))
    }

    /// The default is every usable processor (with tiny chunks, so a small input is cut many
    /// times), and prints what `--jobs 1` prints, on the inputs with their edge cases.
    @Test("the default jobs print what one job prints", arguments: inputs.map(\.0))
    func theDefaultPrintsWhatOneJobPrints(_ name: String) throws {
        let input = Self.inputs.first { $0.0 == name }!.1
        var environment = SiftBinary.environment
        environment["SIFT_FILTER_CHUNK_BYTES"] = "64"
        for arguments in [["age >= 45", "--output", "jsonl"], ["age >= 45", "--limit", "4", "--output", "json"]] {
            let one = try Self.filter(arguments, stdin: input, jobs: 1)
            let byDefault = try SiftBinary.run(arguments: ["filter"] + arguments, stdin: input, environment: environment)
            #expect(byDefault.stdout == one.stdout, "\(arguments)")
            #expect(byDefault.stderr == one.stderr, "\(arguments)")
            #expect(byDefault.status == one.status, "\(arguments)")
        }
    }
}
