import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
@testable import SiftStore
import Testing

/// `fetchLimit` and `fetchOffset` are any non-negative `Int`, up to `Int.max` each, on every
/// store and result type: offset + limit is never computed (it would trap), and a JSON fetch
/// request takes any non-negative 64-bit integer.
@Suite struct FetchPagingLimitsTests {
    static let cases: [(offset: Int, limit: Int, expected: [String])] = [
        (0, .max, ["N1", "N2", "N3", "N4", "N5"]),
        (1, .max, ["N2", "N3", "N4", "N5"]),
        (.max, .max, []),
        (.max, 1, []),
        (.max, 0, []),
        (4, .max - 3, ["N5"]),
        (Int(Int32.max) + 1, 1, []),
    ]

    @Test(arguments: StoreKind.allCases)
    func theLargestOffsetsAndLimits(_ kind: StoreKind) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-paging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.seeded("Notes", in: directory)
        for (offset, limit, expected) in Self.cases {
            for sorted in [false, true] {
                var request = try FetchRequest(statement: sorted ? "Note SORT BY title" : "Note")
                request.fetchOffset = offset
                request.fetchLimit = limit
                let ids = try store.fetch(request).objectIDs.map(\.rawValue)
                if sorted {
                    #expect(ids.count == expected.count, "\(kind) \(offset) \(limit) sorted: \(ids)")
                } else {
                    #expect(ids == expected, "\(kind) \(offset) \(limit): \(ids)")
                }
                #expect(try store.count(request) == expected.count, "\(kind) count \(offset) \(limit)")
                var dictionaries = try FetchRequest(statement: sorted ? "SELECT title FROM Note SORT BY title" : "SELECT title FROM Note")
                dictionaries.fetchOffset = offset
                dictionaries.fetchLimit = limit
                guard case .dictionaries(let rows) = try store.execute(dictionaries) else { Issue.record("no rows"); continue }
                #expect(rows.count == expected.count, "\(kind) dictionaries \(offset) \(limit)")
                var sections = try FetchRequest(statement: "Note SORT BY title SECTION BY title")
                sections.fetchOffset = offset
                sections.fetchLimit = limit
                #expect(try store.fetchSections(sections).sections.reduce(0) { $0 + $1.numberOfObjects } == expected.count)
            }
        }
    }

    @Test func pageRanges() {
        var request = FetchRequest(entityName: "Note")
        for (offset, limit, count, range) in [(0, 0, 5, 0..<5), (2, 0, 5, 2..<5), (9, 0, 5, 5..<5), (.max, .max, 5, 5..<5), (1, .max, 5, 1..<5),
                                              (0, 3, 5, 0..<3), (3, 3, 5, 3..<5), (Int.max - 1, 2, 0, 0..<0)] as [(Int, Int, Int, Range<Int>)] {
            request.fetchOffset = offset
            request.fetchLimit = limit
            #expect(request.page(of: count) == range, "\(offset) \(limit) \(count)")
        }
    }

    @Test func aJSONRequestTakesAny64BitCount() throws {
        let request = try FetchRequest(json: Data(#"{"entityName": "Note", "fetchLimit": 9223372036854775807, "fetchOffset": 2147483648, "fetchBatchSize": 4294967296}"#.utf8))
        #expect(request.fetchLimit == .max && request.fetchOffset == 2147483648 && request.fetchBatchSize == 4294967296)
        #expect(throws: (any Error).self) { try FetchRequest(json: Data(#"{"entityName": "Note", "fetchLimit": -1}"#.utf8)) }
        #expect(throws: (any Error).self) { try FetchRequest(json: Data(#"{"entityName": "Note", "fetchLimit": 9223372036854775808}"#.utf8)) }
    }
}
