import Foundation
import Testing
@testable import SiftEvaluation
import SiftLanguage

/// Sorting and sections as tables (FETCH.md §3, §4), the expected orders worked out by hand.
@Suite("Sorting table")
struct SortingTableTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let records: [Value]
        let sort: String
        let expected: [Int]
        var testDescription: String { "\(name): \(sort)" }
    }

    /// Records `{"v": value}` (nil: the key is there with nil; use `.missing` to leave it out).
    static func records(_ values: [Value?]) -> [Value] {
        values.map { value in
            .dictionary(ValueDictionary(value.map { [("v", $0)] } ?? []))
        }
    }

    static func strings(_ values: [String]) -> [Value] { records(values.map { .string($0) }) }

    static let date = Date(timeIntervalSinceReferenceDate: 10)
    static let uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
    static let numbers = records([.int(3), .double(1.5), .bool(true), .int(-2), .decimal(Decimal(string: "2.25") ?? 0), .null])
    static let kinds = records([.date(date), .string("b"), .int(2), .null, .string("a"), .data(Data([1])), .uuid(uuid), .int(1)])
    static let letters = strings(["b", "B", "a", "\u{E9}", "e", "A"])

    static let rows: [Row] = [
        // Numbers across kinds; nil first ascending, last descending.
        Row(name: "numbers", records: numbers, sort: "v", expected: [5, 3, 2, 1, 4, 0]),
        Row(name: "numbers", records: numbers, sort: "v DESC", expected: [0, 4, 1, 2, 3, 5]),
        // Values of different kinds never tie: nil, numbers, strings, dates, data, UUIDs.
        Row(name: "kinds", records: kinds, sort: "v", expected: [3, 7, 2, 4, 1, 0, 5, 6]),
        Row(name: "kinds", records: kinds, sort: "v DESC", expected: [6, 5, 0, 1, 4, 2, 7, 3]),
        // Ties keep input order, in both directions.
        Row(name: "ties", records: records([.int(1), .double(1), .bool(true), .int(1)]), sort: "v", expected: [0, 1, 2, 3]),
        Row(name: "ties", records: records([.int(1), .double(1), .bool(true), .int(1)]), sort: "v DESC", expected: [0, 1, 2, 3]),
        // A missing key sorts as nil.
        Row(name: "missing", records: records([.int(1), nil, .int(0)]), sort: "v", expected: [1, 2, 0]),
        // The string comparators.
        Row(name: "letters", records: letters, sort: "v", expected: [5, 1, 2, 0, 4, 3]),
        Row(name: "letters", records: letters, sort: "v USING compare", expected: [5, 1, 2, 0, 4, 3]),
        Row(name: "letters", records: letters, sort: "v USING caseInsensitiveCompare", expected: [2, 5, 0, 1, 4, 3]),
        Row(name: "letters", records: letters, sort: "v USING localizedCompare", expected: [5, 2, 1, 0, 4, 3]),
        Row(name: "letters", records: letters, sort: "v USING localizedCaseInsensitiveCompare", expected: [2, 5, 0, 1, 3, 4]),
        Row(name: "letters", records: letters, sort: "v USING localizedStandardCompare", expected: [2, 5, 0, 1, 3, 4]),
        Row(name: "letters", records: letters, sort: "v DESC USING caseInsensitiveCompare", expected: [3, 4, 0, 1, 2, 5]),
        Row(name: "files", records: strings(["file10", "file2", "File1", "file1"]), sort: "v USING localizedStandardCompare", expected: [2, 3, 1, 0]),
        Row(name: "files", records: strings(["file10", "file2", "File1", "file1"]), sort: "v", expected: [2, 3, 0, 1]),
        // ß, Å (precomposed and the Ångström sign), decomposed é, emoji.
        Row(name: "ß", records: strings(["strasse", "straße", "Strasse"]), sort: "v", expected: [2, 0, 1]),
        Row(name: "ß", records: strings(["strasse", "straße", "Strasse"]), sort: "v USING caseInsensitiveCompare", expected: [0, 1, 2]),
        Row(name: "Å", records: strings(["\u{C5}land", "Zulu", "Aland", "\u{212B}land"]), sort: "v", expected: [2, 1, 0, 3]),
        Row(name: "Å", records: strings(["\u{C5}land", "Zulu", "Aland", "\u{212B}land"]), sort: "v USING localizedCaseInsensitiveCompare", expected: [0, 2, 3, 1]),
        Row(name: "é", records: strings(["e\u{301}", "f", "\u{E9}", "e"]), sort: "v", expected: [3, 1, 0, 2]),
        Row(name: "é", records: strings(["e\u{301}", "f", "\u{E9}", "e"]), sort: "v USING localizedCompare", expected: [3, 0, 2, 1]),
        Row(name: "emoji", records: strings(["😁", "😀", "a"]), sort: "v", expected: [2, 1, 0]),
        // Several keys; key paths; aggregates.
        Row(name: "two keys", records: [
            val(["g": 1, "v": 1] as [String: Any?]), val(["g": 0, "v": 5] as [String: Any?]),
            val(["g": 1, "v": 3] as [String: Any?]), val(["g": 0, "v": nil] as [String: Any?]),
        ], sort: "g, v DESC", expected: [1, 3, 2, 0]),
        Row(name: "key path", records: [
            val(["a": ["b": 2]] as [String: Any?]), val(["a": ["b": 1]] as [String: Any?]), val(["a": nil] as [String: Any?]),
        ], sort: "a.b", expected: [2, 1, 0]),
        Row(name: "aggregate", records: [
            val(["t": [1, 2]] as [String: Any?]), val(["t": [Any?]()] as [String: Any?]), val(["t": [5]] as [String: Any?]),
        ], sort: "t.@count DESC, t.@sum", expected: [0, 2, 1]),
    ]

    @Test(arguments: rows)
    func sorts(_ row: Row) throws {
        #expect(try Sorting.sortedIndices(row.records, by: try Sorting.parseSortKeys(row.sort)) == row.expected)
    }
}

@Suite("Sections table")
struct SectionsTableTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let values: [Value?]
        let order: [Int]
        let keyPath: String
        let names: [String]
        let titles: [String]
        let members: [[Int]]
        let contiguous: Bool
        var testDescription: String { "\(keyPath): \(names)" }
    }

    static let rows: [Row] = [
        // Integers in decimal; sections in the order of their first object.
        Row(values: [.int(2017), .int(2016), .int(2016), .int(1999)], order: [0, 1, 2, 3], keyPath: "v",
            names: ["2017", "2016", "1999"], titles: ["2", "2", "1"], members: [[0], [1, 2], [3]], contiguous: true),
        // The order given, not the input order.
        Row(values: [.int(1), .int(2), .int(1)], order: [1, 2, 0], keyPath: "v",
            names: ["2", "1"], titles: ["2", "1"], members: [[1], [2, 0]], contiguous: true),
        // Not contiguous: a warning.
        Row(values: [.string("b"), .string("a"), .string("b")], order: [0, 1, 2], keyPath: "v",
            names: ["b", "a"], titles: ["B", "A"], members: [[0, 2], [1]], contiguous: false),
        // nil, a missing key and "" share the section "".
        Row(values: [.null, .string(""), nil, .string("x")], order: [0, 1, 2, 3], keyPath: "v",
            names: ["", "x"], titles: ["", "X"], members: [[0, 1, 2], [3]], contiguous: true),
        // The text form of each kind.
        Row(values: [.double(2.5), .bool(true), .date(Date(timeIntervalSinceReferenceDate: 0)), .decimal(Decimal(string: "1.25") ?? 0), .int(-3)],
            order: [0, 1, 2, 3, 4], keyPath: "v",
            names: ["2.5", "1", "2001-01-01T00:00:00Z", "1.25", "-3"], titles: ["2", "1", "2", "1", "-"],
            members: [[0], [1], [2], [3], [4]], contiguous: true),
        // Titles: the first character upper-cased (whole clusters; ß upper-cases to SS).
        Row(values: [.string("e\u{301}clair"), .string("\u{E9}clair"), .string("ßig"), .string("\u{E5}land"), .string("😀 smile")],
            order: [0, 1, 2, 3, 4], keyPath: "v",
            names: ["\u{E9}clair", "ßig", "\u{E5}land", "😀 smile"], titles: ["\u{C9}", "SS", "\u{C5}", "😀"],
            members: [[0, 1], [2], [3], [4]], contiguous: true),
        // A key path across a to-one relationship.
        Row(values: [nil, nil], order: [0, 1], keyPath: "address.city", names: [""], titles: [""], members: [[0, 1]], contiguous: true),
    ]

    @Test(arguments: rows)
    func sections(_ row: Row) throws {
        let records: [Value] = row.values.map { value in .dictionary(ValueDictionary(value.map { [("v", $0)] } ?? [])) }
        let result = try SectionedResults(records, order: row.order, sectionKeyPath: row.keyPath)
        #expect(result.sections.map(\.name) == row.names)
        #expect(result.sectionIndexTitles == row.titles)
        #expect(result.sections.map(\.objectIndices) == row.members)
        #expect(result.sections.map(\.numberOfObjects) == row.members.map(\.count))
        #expect((result.warning == nil) == row.contiguous)
    }

    @Test func toOneKeyPath() throws {
        let records = [
            val(["address": ["city": "Oslo"]] as [String: Any?]), val(["address": ["city": "Bergen"]] as [String: Any?]),
            val(["address": ["city": "Oslo"]] as [String: Any?]), val(["address": nil] as [String: Any?]),
        ]
        let order = try Sorting.sortedIndices(records, by: try Sorting.parseSortKeys("address.city"))
        #expect(order == [3, 1, 0, 2])
        let result = try SectionedResults(records, order: order, sectionKeyPath: "address.city")
        #expect(result.sections.map(\.name) == ["", "Bergen", "Oslo"])
        #expect(result.sections.map(\.objectIndices) == [[3], [1], [0, 2]])
        #expect(result.warning == nil)
    }
}
