import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftSQLiteStore
import SiftStore
import Testing

/// Values equal under `==` fall in one section (FETCH.md §4, ``SectionIdentity``): `0`, `-0`,
/// `0.0` and `-0.0` are one section, named as the first of them prints; `1`, `1.0`, `true` and
/// the decimal `1` another — in the evaluator's sections and in the SQLite store's.
@Suite struct SectionIdentityTests {
    @Test func equalNumbersShareASectionNamedByTheFirst() throws {
        let values: [Value] = [.double(-0.0), .int(0), .double(0.0), .int(1), .double(1.0), .bool(true), .decimal(1),
                               .double(2.5), .decimal(Decimal(string: "2.5") ?? 0), .string("x")]
        let sectioned = try SectionedResults(values.map { .dictionary(ValueDictionary([("a", $0)])) }, order: Array(values.indices),
                                             sectionKeyPath: "a")
        #expect(sectioned.sections.map(\.name) == ["-0.0", "1", "2.5", "x"])
        #expect(sectioned.sections.map(\.objectIndices) == [[0, 1, 2], [3, 4, 5, 6], [7, 8], [9]])
        #expect(sectioned.warning == nil)
        // Every pair in a section is equal under ==; no two sections' values are.
        for section in sectioned.sections {
            for a in section.objectIndices {
                for b in section.objectIndices { #expect(ValueComparison.equals(values[a], values[b]), "\(values[a]) \(values[b])") }
            }
        }
    }

    @Test(arguments: [
        (Value.int(0), "0"), (.double(-0.0), "0"), (.double(0.0), "0"), (.bool(false), "0"), (.decimal(0), "0"),
        (.double(1e20), "1e+20"), (.double(-9.223372036854775808e18), "-9223372036854775808"), (.double(.infinity), "inf"),
        (.decimal(Decimal(string: "0.1") ?? 0), "0.1"), (.double(0.1), "0.1"), (.int(.min), "-9223372036854775808"),
        (.null, ""), (.string(""), ""),
    ])
    func identities(_ value: Value, _ key: String) {
        #expect(SectionIdentity.key(of: value) == key)
    }

    /// `sift filter --section-by` on JSON numbers (the CLI's own sections are the evaluator's).
    @Test func zeroesOfEverySpellingAreOneSectionOnTheEvaluator() throws {
        let records = [#"{"a": -0}"#, #"{"a": 0.0}"#, #"{"a": -0.0}"#, #"{"a": 0}"#, #"{"a": 1.0}"#, #"{"a": 1}"#]
        let values = try records.map { try Value(json: $0) }
        let sectioned = try SectionedResults(values, order: Array(values.indices), sectionKeyPath: "a")
        #expect(sectioned.sections.map(\.name) == ["0", "1.0"])
        #expect(sectioned.sections.map(\.numberOfObjects) == [4, 2])
    }

    static let modelJSON = #"""
    {"name": "Readings", "entities": [{"name": "Reading", "attributes": [
      {"name": "x", "type": "Double"}, {"name": "n", "type": "Integer 64"}, {"name": "amount", "type": "Decimal"}]}]}
    """#

    /// The same readings in the in-memory store and in SQLite: the sections agree, zeroes in one.
    @Test(arguments: ["Reading SORT BY x SECTION BY x", "Reading SECTION BY x", "Reading SORT BY n SECTION BY amount",
                      "Reading WHERE n > 0 SORT BY x SECTION BY x LIMIT 4 OFFSET 1"])
    func storesAgree(_ statement: String) throws {
        let model = try JSONModelFormat.read(Data(Self.modelJSON.utf8))
        let memory = AtomicStore.inMemory(model: model)
        let sqlite = try SQLiteStore.inMemory(model: model)
        let readings: [(Double, Int64, String)] = [(0.0, 1, "1.50"), (-0.0, 2, "1.5"), (2.5, 3, "0"), (-0.0, 4, "-0"), (1.0, 5, "1"), (1, 6, "1.0")]
        for store in [memory, sqlite] as [any PersistentStore] {
            for (index, reading) in readings.enumerated() {
                try store.insert("Reading", id: ObjectID("r\(index)"), ["x": .double(reading.0), "n": .int(reading.1),
                                                                         "amount": .decimal(Decimal(string: reading.2) ?? 0)])
            }
            try store.save()
        }
        let request = try FetchRequest(statement: statement)
        let expected = SectionSQLTests.Observed(try memory.fetchSections(request))
        let actual = SectionSQLTests.Observed(try sqlite.fetchSections(request))
        #expect(actual == expected, "\(statement): SQLite \(actual), in memory \(expected)")
        let zeroes = expected.ids.filter { ids in ids.contains("r0") }
        if statement.hasSuffix("SECTION BY x") { #expect(zeroes.first?.contains("r1") == true, "\(expected)") }
    }

    static let manyModelJSON = #"""
    {"name": "Rows", "entities": [{"name": "Row", "attributes": [
      {"name": "k", "type": "Double"}, {"name": "n", "type": "Integer 64"}, {"name": "t", "type": "String"}]}]}
    """#

    /// More sections than the SQLite store queries one by one (``SQLFetchExecutor``'s limit):
    /// their objects' keys are read once and grouped in memory, and the sections are still the
    /// evaluator's — names, order, members, the zeroes and nil with "" in one, interleaved
    /// sections, paging.
    @Test(arguments: ["Row SECTION BY k", "Row SORT BY k SECTION BY k", "Row SORT BY n SECTION BY t",
                      "Row WHERE n > 5 SORT BY k DESC SECTION BY k LIMIT 3000 OFFSET 7"])
    func manySectionsAgree(_ statement: String) throws {
        let model = try JSONModelFormat.read(Data(Self.manyModelJSON.utf8))
        let memory = AtomicStore.inMemory(model: model)
        let sqlite = try SQLiteStore.inMemory(model: model)
        for store in [memory, sqlite] as [any PersistentStore] {
            for i in 0..<6_000 {
                // 2,500 keys, each met more than once and far apart; 0.0 and -0.0 one section.
                let key = i % 2_500 == 0 ? (i % 2 == 0 ? 0.0 : -0.0) : Double((i * 7) % 2_500) / 4
                let text: Value = i % 1_000 == 3 ? .null : i % 1_000 == 4 ? .string("") : .string("t\((i * 13) % 2_100)")
                try store.insert("Row", id: ObjectID("r\(i)"), ["k": .double(key), "n": .int(Int64(6_000 - i)), "t": text])
            }
            try store.save()
        }
        let request = try FetchRequest(statement: statement)
        let expected = SectionSQLTests.Observed(try memory.fetchSections(request))
        let actual = SectionSQLTests.Observed(try sqlite.fetchSections(request))
        #expect(expected.ids.count > 1_000, "\(statement): \(expected.ids.count) sections")
        #expect(actual == expected, "\(statement)")
    }

    /// A database Sift did not create, with a column of no declared type holding 0, 0.0 and
    /// -0.0 (SQLite keeps each as written): one section for them, as the evaluator makes.
    @Test func anUntypedColumnsZeroesAreOneSection() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-sections-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("readings.db")
        let database = try SQLiteDatabase(path: url.path, options: [.create])
        try database.execute("""
            CREATE TABLE Reading (id INTEGER PRIMARY KEY, v);
            INSERT INTO Reading VALUES (1, 0), (2, -0.0), (3, 0.0), (4, 1), (5, 1.0), (6, 'x');
            """)
        let store = try SQLiteStore.open(at: url)
        let sections = try store.fetchSections(FetchRequest(statement: "Reading SECTION BY v"))
        #expect(sections.sections.map(\.name) == ["0", "1", "x"])
        #expect(sections.sections.map(\.numberOfObjects) == [3, 2, 1])
    }
}
