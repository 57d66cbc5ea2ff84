import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Values are parameters and names are quoted: quotes, SQL, huge strings as attribute values,
/// object IDs and names in the model are stored and found as themselves, and hostile names in
/// requests are refused as unknown, with nothing run.
@Suite struct HostileInputTests {
    static let hostile = [
        "'", "''", "\"", "'; DROP TABLE \"Note\"; --", "\\", "$1", "%@", "-- comment", "/* */", "\u{FEFF}", "é", "👩‍👩‍👧",
        String(repeating: "x'", count: 500_000),
    ]

    @Test func hostileValuesAndIDsRoundTrip() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "hostile")
        defer { test.database.drop() }
        for (index, text) in Self.hostile.enumerated() {
            try test.store.insert("Folder", id: ObjectID("\(text)#\(index)"), ["name": .string(text)])
        }
        try test.store.save()
        let store = try test.reopened()
        let folders = try store.fetch(FetchRequest(entityName: "Folder"))
        #expect(folders.count == Self.hostile.count)
        for (index, text) in Self.hostile.enumerated() {
            let object = store.object(with: ObjectID("\(text)#\(index)"))
            #expect(same(object?[attribute: "name"], .string(StringFolding.nfc(text))), "#\(index)")
            let request = try FetchRequest(entityName: "Folder", predicate: "name == %@", arguments: [text])
            #expect(try store.fetch(request).objectIDs == [ObjectID("\(text)#\(index)")], "#\(index)")
        }
        // The tables are all there.
        #expect(try store.count(FetchRequest(entityName: "Note")) == 0)
    }

    /// Constants in compiled predicates are bound: the server's SQL never holds their text, and
    /// each finds exactly its own object (in the server: equality, [cd] equality on the folded
    /// column, BEGINSWITH as a range, CONTAINS and ENDSWITH); one with NUL runs in memory.
    @Test func hostileConstantsInCompiledPredicatesAreBound() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "hostile_sql")
        defer { test.database.drop() }
        let texts = Self.hostile.dropLast() + ["a\u{0}b"]
        for (index, text) in texts.enumerated() where !text.contains("\u{0}") {
            try test.store.insert("Folder", id: ObjectID("f\(index)"), ["name": .string("<\(text)>")])
        }
        try test.store.save()
        for (index, text) in texts.enumerated() {
            let expected = text.contains("\u{0}") ? [] : [ObjectID("f\(index)")]
            for format in ["name == %@", "name ==[cd] %@", "name BEGINSWITH %@", "name CONTAINS %@", "name ENDSWITH %@"] {
                let value = format == "name == %@" || format == "name ==[cd] %@" ? "<\(text)>" : format.hasSuffix("BEGINSWITH %@") ? "<\(text)" : "\(text)>"
                let request = FetchRequest(entityName: "Folder", predicate: try PredicateNode(format: format, value))
                let generated = try test.store.generatedSQL(for: request)
                if text.contains("\u{0}") {
                    #expect(generated.inMemoryPredicate != nil, "\(generated)")
                } else {
                    #expect(generated.inMemoryPredicate == nil, "\(format): \(generated)")
                    #expect(!generated.sql.contains(value), "\(generated.sql)")
                }
                let found = try test.store.fetch(request).objectIDs
                // (A needle inside another folder's name finds that folder too.)
                #expect(Set(expected).isSubset(of: Set(found)), "\(format) \(text.prefix(20))")
                if format == "name == %@" { #expect(found == expected, "\(text.prefix(20))") }
            }
        }
    }

    @Test func hostileNamesInRequestsAreUnknown() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "names")
        defer { test.database.drop() }
        for name in ["Note\"; DROP TABLE \"Note", "'", "sift.metadata", "pg_class", ""] {
            #expect(throws: StoreError.self) { try test.store.fetch(FetchRequest(entityName: name)) }
            #expect(throws: StoreError.self) { try test.store.insert(name, [:]) }
            #expect(test.store.object(with: ObjectID(name)) == nil)
        }
        #expect(throws: (any Error).self) { try test.store.fetch(FetchRequest(statement: "Note WHERE `x\"; DROP TABLE y` == 1")) }
        #expect(try test.store.count(FetchRequest(entityName: "Note")) == 0)
    }

    /// A model whose entity, attribute and relationship names are quotes, spaces and SQL.
    @Test func hostileNamesInTheModel() async throws {
        let model = StoreTestModels.model(#"""
            {"name": "Hostile", "entities": [
              {"name": "Weird\"Name", "attributes": [{"name": "a'b", "type": "string"}, {"name": "select", "type": "integer64"}],
               "relationships": [{"name": "x y", "destination": "Other'; DROP", "toMany": true, "inverse": "back\""}]},
              {"name": "Other'; DROP", "attributes": [{"name": "\"", "type": "string"}],
               "relationships": [{"name": "back\"", "destination": "Weird\"Name", "inverse": "x y"}]}
            ]}
            """#)
        let test = try await StoreTestDatabase.make(model, label: "model")
        defer { test.database.drop() }
        let other = try test.store.insert("Other'; DROP", ["\"": .string("o")])
        try test.store.insert("Weird\"Name", id: ObjectID("w"), ["a'b": .string("v"), "select": .int(3)], relationships: ["x y": [other]])
        try test.store.save()
        let store = try test.reopened()
        let weird = try #require(try store.fetch(FetchRequest(entityName: "Weird\"Name")).first)
        #expect(same(weird[attribute: "a'b"], .string("v")))
        #expect(weird.destinationIDs(of: "x y") == [other])
        let back = try #require(store.object(with: other))
        #expect(back.destinationIDs(of: "back\"") == [ObjectID("w")])
    }

    /// Entity names with quotes, backslashes, commas and braces in a hierarchy: the `"_entity"`
    /// restriction (a `text[]` parameter) selects exactly the asked entities.
    @Test func hostileEntityNamesInAHierarchy() async throws {
        let model = StoreTestModels.model(#"""
            {"name": "Tree", "entities": [
              {"name": "Ro\"ot", "attributes": [{"name": "n", "type": "integer64"}]},
              {"name": "C\\h,{i}l d", "parent": "Ro\"ot"},
              {"name": "NULL", "parent": "Ro\"ot"}
            ]}
            """#)
        let test = try await StoreTestDatabase.make(model, label: "tree")
        defer { test.database.drop() }
        let names = model.entities.map(\.name)
        for (index, name) in names.enumerated() { try test.store.insert(name, id: ObjectID("o\(index)"), ["n": .int(Int64(index))]) }
        try test.store.save()
        let store = try test.reopened()
        for (index, name) in names.enumerated() {
            var only = FetchRequest(entityName: name)
            only.includesSubentities = false
            #expect(try store.fetch(only).objectIDs == [ObjectID("o\(index)")], "\(name)")
        }
        #expect(try store.count(FetchRequest(entityName: names[0])) == 3)
    }
}
