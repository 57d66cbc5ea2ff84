import Foundation
import Sift
import Synchronization
import Testing
@testable import SiftCLI

/// `sift query --output csv` of objects whose keys are all the same (an entity without
/// subentities) writes each row as it comes — the same text as collecting every result for the
/// header's union of keys, without holding them. Measured by what has left when each row is
/// written, not by timing.
@Suite struct CSVStreamingTests {
    static func matches() throws -> [Match] {
        let store = try SectionStreamingTests.store()
        let request = try FetchRequest(statement: "Person WHERE name ENDSWITH '7' SORT BY city, name")
        var position = 0
        return try store.fetch(request).map { object in
            defer { position += 1 }
            return StoredObjectJSON.match(ObjectOutput().value(of: object, model: store.model), position: position)
        }
    }

    /// What `renderer` prints for `matches`, and how many rows had left when each was written.
    static func render(_ matches: [Match], sameKeys: Bool) -> (text: String, rowsOutBefore: [Int]) {
        let collected = Mutex("")
        let output = StandardOutput(collector: { text in collected.withLock { $0 += text } }, interactive: true)
        var renderer = OutputFormat.csv.makeRenderer(output, sameKeys: sameKeys)
        var rowsOut: [Int] = []
        for match in matches {
            renderer.write(match)
            rowsOut.append(collected.withLock { $0.split(separator: "\r\n").count })
        }
        renderer.finish()
        output.flush()
        return (collected.withLock { $0 }, rowsOut)
    }

    @Test func rowsLeaveAsTheyAreWritten() throws {
        let matches = try Self.matches()
        #expect(matches.count == 2_000)
        let streamed = Self.render(matches, sameKeys: true)
        // The header and the row, then one more row each time.
        #expect(streamed.rowsOutBefore == Array(2...(matches.count + 1)))
        let collected = Self.render(matches, sameKeys: false)
        #expect(collected.rowsOutBefore.allSatisfy { $0 == 0 })
        #expect(streamed.text == collected.text)
        #expect(streamed.text.hasPrefix("@entity,@id,name,city\r\nPerson,"))
    }

    @Test func noResultsPrintNothing() {
        #expect(Self.render([], sameKeys: true).text == "")
        #expect(Self.render([], sameKeys: false).text == "")
    }
}
