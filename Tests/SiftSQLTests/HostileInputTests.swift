import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// Key paths and arguments full of quotes, semicolons and SQL comments give correct results or
/// clear errors, never reach SQL text, and never alter the database.
@Suite struct HostileInputTests {
    static let hostile = [
        "x'; DROP TABLE \"Book\"; --", "\"; DELETE FROM Book; --", "') OR 1=1 --", "/* comment */", "?1", "\\", "'", "\"",
        "Robert'); DROP TABLE Students;--", "\u{0}", "title\" FROM \"Book",
    ]

    @Test(arguments: hostile)
    func argumentsAreBoundValues(_ text: String) throws {
        let store = try SQLTestModel.store()
        let before = try store.rawRows("SELECT count(*) FROM \"Book\"")
        for format in ["title == %@", "title BEGINSWITH %@", "title CONTAINS[c] %@", "title LIKE %@", "title IN {%@, 'Excession'}",
                       "author.name != %@", "ANY tags.name == %@"] {
            let request = try FetchRequest(entityName: "Book", predicate: format, arguments: [text])
            let generated = try store.generatedSQL(for: request)
            #expect(!generated.sql.contains(text) || text.count < 3, "\(generated.sql)")
            let ids = try store.fetch(request).objectIDs
            let expected = try AtomicReference.ids(request)
            #expect(ids == expected, "\(format) with \(text)")
        }
        #expect(try store.rawRows("SELECT count(*) FROM \"Book\"") == before)
    }

    @Test(arguments: hostile)
    func keyPathsAreCheckedAgainstTheModel(_ key: String) throws {
        let store = try SQLTestModel.store()
        let request = try FetchRequest(entityName: "Book", predicate: "%K == 1", arguments: [key])
        #expect(throws: StoreError.self) { try store.fetch(request) }
        #expect(throws: StoreError.self) { try store.generatedSQL(for: request) }
        #expect(try store.rawRows("SELECT count(*) FROM \"Book\"") == [[.integer(4)]])
    }

    @Test func hostileObjectIDsFindNothing() throws {
        let store = try SQLTestModel.store()
        for text in Self.hostile {
            let request = try FetchRequest(entityName: "Book", predicate: "author == %@", arguments: [ObjectID(text)])
            #expect(try store.fetch(request).objectIDs == [])
            #expect(store.object(with: ObjectID(text)) == nil)
        }
    }

    /// Entity names are written into SQL as literals where a statement tests a shared column's
    /// rows by entity (`"_entity" IN ('Cat')`): each quote is doubled, also one a combining mark
    /// follows (one `Character` with the quote, which Foundation's `replacingOccurrences` left
    /// single, so the statement failed or read another entity's rows).
    @Test func entityNamesWithQuotesAreWrittenAsLiterals() throws {
        let cat = "Cat'\u{301}) OR 1=1 --"
        let json = """
        {"name": "Pets", "entities": [
          {"name": "Pet", "attributes": [{"name": "n", "type": "Integer 64"}]},
          {"name": "\(cat)", "parent": "Pet",
           "relationships": [{"name": "owner", "destination": "Owner", "inverse": "cats"}]},
          {"name": "Dog", "parent": "Pet",
           "relationships": [{"name": "owner", "destination": "Owner", "inverse": "dogs"}]},
          {"name": "Owner", "relationships": [
            {"name": "cats", "destination": "\(cat)", "toMany": true, "inverse": "owner"},
            {"name": "dogs", "destination": "Dog", "toMany": true, "inverse": "owner"}]}
        ]}
        """
        let store = try SQLiteStore.inMemory(model: try JSONModelFormat.read(Data(json.utf8)))
        _ = try store.insert(entity: "Owner", id: ObjectID("o"), attributes: [:], relationships: [:])
        _ = try store.insert(entity: cat, id: ObjectID("c"), attributes: ["n": .int(1)], relationships: ["owner": [ObjectID("o")]])
        _ = try store.insert(entity: "Dog", id: ObjectID("d"), attributes: ["n": .int(2)], relationships: ["owner": [ObjectID("o")]])
        try store.save()
        let owner = try #require(store.object(with: ObjectID("o")))
        #expect(owner.destinationIDs(of: "cats") == [ObjectID("c")])
        #expect(owner.destinationIDs(of: "dogs") == [ObjectID("d")])
        let request = try FetchRequest(entityName: "Owner", predicate: "cats.@count == 1 AND dogs.@count == 1")
        #expect(try store.fetch(request).objectIDs == [ObjectID("o")])
    }

    @Test func hostileStringsAreStoredAndFoundIntact() throws {
        let store = try SQLTestModel.store()
        for (index, text) in Self.hostile.enumerated() {
            try store.insert("Book", id: ObjectID("h\(index)"), ["title": .string(text)])
        }
        try store.save()
        for (index, text) in Self.hostile.enumerated() {
            let request = try FetchRequest(entityName: "Book", predicate: "title == %@", arguments: [text])
            #expect(try store.fetch(request).objectIDs == [ObjectID("h\(index)")], "\(text)")
        }
    }

    /// A decimal of up to 15 significant digits reads back from its REAL column as it was
    /// written (found by fuzz-csv: 12.552 was stored as the double 12.552000000000001, which
    /// NSDecimalNumber's doubleValue gave, and read back so).
    @Test func decimalsReadBackAsWritten() throws {
        let model = try JSONModelFormat.read(Data(#"""
            {"name": "Ledger", "entities": [{"name": "Entry", "attributes": [{"name": "amount", "type": "Decimal"}]}]}
            """#.utf8))
        let texts = ["12.552", "0.1", "-7.3", "123456789.123456", "1e-10", "0.000123", "99999999999999.9"]
        let store = try SQLiteStore.inMemory(model: model)
        for (index, text) in texts.enumerated() {
            try store.insert("Entry", id: ObjectID("e\(index)"), ["amount": .decimal(try #require(Decimal(string: text)))])
        }
        try store.save()
        for (index, text) in texts.enumerated() {
            let entry = try #require(store.object(with: ObjectID("e\(index)")))
            guard case .decimal(let amount)? = entry[attribute: "amount"] else {
                Issue.record("\(text): not a decimal")
                continue
            }
            #expect(amount == Decimal(string: text), "\(text) read back as \(amount)")
        }
    }

    /// A Sift store file edited by other means: an infinity in a Decimal column reads as NaN
    /// (a decimal has no infinity), and fetches and sums over it run, never trap.
    @Test func anInfinityInADecimalColumnReadsAsNaN() throws {
        let model = try JSONModelFormat.read(Data(#"""
            {"name": "Ledger", "entities": [{"name": "Entry", "attributes": [{"name": "amount", "type": "Decimal"}]}]}
            """#.utf8))
        let store = try SQLiteStore.inMemory(model: model)
        try store.insert("Entry", id: "e1", ["amount": .decimal(Decimal(string: "12.5") ?? 0)])
        try store.insert("Entry", id: "e2", ["amount": .decimal(1)])
        try store.save()
        _ = try store.rawRows(#"UPDATE "Entry" SET "amount" = 9e999 WHERE "_id" = 'e1'"#)
        let entries = try store.fetch(FetchRequest(statement: "Entry"))
        guard case .decimal(let amount)? = entries.first?[attribute: "amount"] else {
            Issue.record("no decimal amount")
            return
        }
        #expect(amount.isNaN)
        #expect(try store.count(FetchRequest(statement: "Entry WHERE amount > 0")) >= 1)
        guard case .dictionaries(let rows) = try store.execute(FetchRequest(statement: "SELECT sum:(amount) AS total FROM Entry GROUP BY nil")) else {
            Issue.record("not dictionaries")
            return
        }
        #expect(rows.count <= 1)
    }
}

/// The same requests on an atomic store with the same data: the answers the SQLite store must give.
enum AtomicReference {
    static func ids(_ request: FetchRequest) throws -> [ObjectID] {
        let store = AtomicStore.inMemory(model: try SQLTestModel.model())
        try store.insert("Author", id: "a1", ["name": .string("Le Guin")])
        try store.insert("Author", id: "a2", ["name": .string("Banks")])
        try store.insert("Tag", id: "t1", ["name": .string("sci-fi")])
        try store.insert("Tag", id: "t2", ["name": .string("classic")])
        try store.insert("Book", id: "b1", ["title": .string("The Dispossessed"), "year": .int(1974), "price": .double(9.5)],
                         relationships: ["author": ["a1"], "tags": ["t1", "t2"]])
        try store.insert("Book", id: "b2", ["title": .string("Excession"), "year": .int(1996)], relationships: ["author": ["a2"], "tags": ["t1"]])
        try store.insert("Ebook", id: "e1", ["title": .string("Star Maker"), "format": .string("epub")])
        try store.insert("Book", id: "b3", ["title": .string("Stár Trek"), "year": .int(1966)], relationships: ["tags": []])
        try store.save()
        return try store.fetch(request).objectIDs
    }

}
