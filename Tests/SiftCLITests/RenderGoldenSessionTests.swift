import Foundation
import Sift
import Synchronization
import Testing
@testable import SiftCLI

/// The REPL's renderers where the transcripts' small stores cannot reach: more records than a
/// batch, and later records with keys the first batch lacked (a subentity's attributes), in
/// every mode, with and without sections. Each case's output must be exactly
/// `RenderGolden/session-NAME.out` (`SIFT_UPDATE_GOLDEN=1` writes them).
@Suite struct RenderGoldenSessionTests {
    /// 105 records of keys `id, name` (every third name nil), then 2 with a `size` key too.
    static var records: [Value] {
        var records: [Value] = []
        for i in 0..<105 {
            records.append(.dictionary(ValueDictionary([("id", .int(Int64(i))), ("name", i % 3 == 0 ? .null : .string("n,\(i)"))])))
        }
        for i in 105..<107 {
            records.append(.dictionary(ValueDictionary([("id", .int(Int64(i))), ("name", .string("wide \(i)")), ("size", .double(Double(i) / 4))])))
        }
        return records
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let mode: SessionSettings.Mode
        let sectioned: Bool
        let headers: Bool
        var testDescription: String { "\(mode.rawValue)\(sectioned ? "-sections" : "")\(headers ? "" : "-noheaders")" }
    }

    static let cases: [Case] = SessionSettings.Mode.allCases.flatMap { mode in
        [Case(mode: mode, sectioned: false, headers: true), Case(mode: mode, sectioned: true, headers: true),
         Case(mode: mode, sectioned: true, headers: false)]
    }

    @Test(arguments: cases)
    func modePrintsAsBefore(_ c: Case) throws {
        let collected = Mutex("")
        let output = StandardOutput(collector: { text in collected.withLock { $0 += text } })
        var context = RenderContext(output: output, mode: c.mode)
        context.options.headers = c.headers
        context.options.nullValue = "NULL"
        context.expanded = .off
        context.sectioned = c.sectioned
        var renderer = context.makeRenderer()
        for (i, record) in Self.records.enumerated() {
            if c.sectioned && i % 50 == 0 {
                renderer.beginSection(RecordSection(name: i == 0 ? "" : "s\(i)", indexTitle: "S", count: min(50, Self.records.count - i)))
            }
            renderer.write(record)
        }
        renderer.finish()
        output.flush()
        try RenderGoldenCommandTests.compare(collected.withLock { $0 }, "session-\(c.testDescription)")
    }
}
