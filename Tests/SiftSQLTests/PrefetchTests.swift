import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Synchronization
import Testing

/// `relationshipKeyPathsForPrefetching` on SQLite: a batch's relationships are loaded with one
/// query per relationship, and read exactly as without prefetching (and as the atomic store).
@Suite struct PrefetchTests {
    /// Books by authors (a to-one, and its inverse held by the books' column), tagged (a join
    /// table, unordered both ways), on authors' shelves (an ordered join table); some books have
    /// no author, tags or shelf, one author has no books, one shelf is empty.
    static let json = #"""
    {
      "name": "Shelves",
      "entities": [
        {"name": "Book",
         "attributes": [{"name": "title", "type": "String", "optional": false}, {"name": "year", "type": "Integer 64"}],
         "relationships": [
           {"name": "author", "destination": "Author", "inverse": "books"},
           {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "books"},
           {"name": "shelvedBy", "destination": "Author", "toMany": true, "inverse": "shelf"}
         ]},
        {"name": "Ebook", "parent": "Book", "attributes": [{"name": "format", "type": "String"}]},
        {"name": "Author",
         "attributes": [{"name": "name", "type": "String", "optional": false}],
         "relationships": [
           {"name": "books", "destination": "Book", "toMany": true, "inverse": "author"},
           {"name": "shelf", "destination": "Book", "toMany": true, "ordered": true, "inverse": "shelvedBy"}
         ]},
        {"name": "Tag",
         "attributes": [{"name": "name", "type": "String", "optional": false}],
         "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "tags"}]}
      ]
    }
    """#

    static let bookCount = 50

    static func fill(_ store: any PersistentStore) throws {
        for a in 0..<6 { try store.insert("Author", id: ObjectID("a\(a)"), ["name": .string("Author \(a)")]) }
        for t in 0..<4 { try store.insert("Tag", id: ObjectID("t\(t)"), ["name": .string("Tag \(t)")]) }
        for b in 0..<bookCount {
            var relationships: [String: [ObjectID]] = [:]
            // a5 writes nothing; every seventh book has no author.
            if b % 7 != 3 { relationships["author"] = [ObjectID("a\(b % 5)")] }
            // Tags in an order other than insertion order; every fifth book has none.
            if b % 5 != 2 { relationships["tags"] = (0..<(b % 4 + 1)).map { ObjectID("t\((b + 3 * $0) % 4)") } }
            let entity = b % 6 == 0 ? "Ebook" : "Book"
            var attributes: [String: Value] = ["title": .string("Book \(b % 13) \(b)"), "year": .int(Int64(1950 + b % 30))]
            if entity == "Ebook" { attributes["format"] = .string("epub") }
            try store.insert(entity, id: ObjectID("b\(b)"), attributes, relationships: relationships)
        }
        // Shelves: ordered, against insertion order; a4's is empty.
        for a in 0..<4 {
            let shelf = stride(from: bookCount - 1 - a, through: 0, by: -(a + 3)).map { ObjectID("b\($0)") }
            try store.update(ObjectID("a\(a)"), attributes: [:], relationships: ["shelf": shelf])
        }
        try store.save()
    }

    static func stores() throws -> (memory: AtomicStore, sqlite: SQLiteStore) {
        let model = try JSONModelFormat.read(Data(json.utf8))
        let memory = AtomicStore.inMemory(model: model)
        let sqlite = try SQLiteStore.inMemory(model: model)
        try fill(memory)
        try fill(sqlite)
        return (memory, sqlite)
    }

    static func request(_ entity: String, prefetching paths: [String], batchSize: Int, sorted: Bool = true) -> FetchRequest {
        var request = FetchRequest(entityName: entity)
        if sorted { request.sortDescriptors = [SortKey(entity.hasSuffix("ook") ? "title" : "name", ascending: false)] }
        request.relationshipKeyPathsForPrefetching = paths
        request.fetchBatchSize = batchSize
        return request
    }

    /// What reading `keyPath` from `value` gives: IDs, nested along the path (`b1{a2}`); sets
    /// `{…}`, arrays `[…]`. With `sortingSets`, set elements are sorted (sets have no order the
    /// stores must agree on; the SQLite store's is the same with and without prefetching).
    static func render(_ value: Value, _ keys: ArraySlice<String>, sortingSets: Bool) throws -> String {
        switch value {
        case .null: return "nil"
        case .object(let object):
            // Either store's object: its identity's description is its ID.
            let id = String(describing: object.objectIdentity.base)
            guard let key = keys.first else { return id }
            return id + "(" + (try render(object.value(forKey: key), keys.dropFirst(), sortingSets: sortingSets)) + ")"
        case .array(let elements):
            return "[" + (try elements.map { try render($0, keys, sortingSets: sortingSets) }).joined(separator: " ") + "]"
        case .set(let elements):
            var items = try elements.map { try render($0, keys, sortingSets: sortingSets) }
            if sortingSets { items.sort() }
            return "{" + items.joined(separator: " ") + "}"
        default: return "\(value)"
        }
    }

    /// Each object in iteration order: its ID, the paths read from it, and its relationship IDs.
    static func observe(_ objects: FetchedObjects, paths: [String], model: DataModel, sortingSets: Bool) throws -> [String] {
        var lines: [String] = []
        for object in objects {
            var line = object.objectID.rawValue + ":"
            for path in paths {
                let keys = path.split(separator: ".").map(String.init)
                line += " " + path + "=" + (try render(.object(object), keys[...], sortingSets: sortingSets))
            }
            for (name, ids, isToMany) in object.relationshipIDs {
                let ordered = model.entity(named: object.entityName)?.relationship(named: name)?.isOrdered ?? false
                var raw = ids.map(\.rawValue)
                if sortingSets, isToMany, !ordered { raw.sort() }
                line += " #\(name)=" + raw.joined(separator: ",")
            }
            lines.append(line)
        }
        return lines
    }

    static let cases: [(entity: String, paths: [String])] = [
        ("Book", ["author"]),
        ("Book", ["tags"]),
        ("Book", ["shelvedBy"]),
        ("Book", ["author", "author.books", "author.shelf", "tags.books"]),
        ("Ebook", ["author.books.tags"]),
        ("Author", ["books"]),
        ("Author", ["shelf"]),
        ("Author", ["books.tags", "shelf.author", "books"]),
        ("Tag", ["books.author.shelf"]),
    ]

    @Test(arguments: [0, 1, 7, 500])
    func prefetchedReadsAreTheUnprefetchedAndTheAtomicStoresReads(batchSize: Int) throws {
        let (memory, sqlite) = try Self.stores()
        let model = sqlite.model
        for (entity, paths) in Self.cases {
            for sorted in [true, false] {
                let prefetched = Self.request(entity, prefetching: paths, batchSize: batchSize, sorted: sorted)
                let plain = Self.request(entity, prefetching: [], batchSize: batchSize, sorted: sorted)
                let expected = try Self.observe(try sqlite.fetch(plain), paths: paths, model: model, sortingSets: false)
                let observed = try Self.observe(try sqlite.fetch(prefetched), paths: paths, model: model, sortingSets: false)
                #expect(observed == expected, "\(entity) \(paths) batch \(batchSize) sorted \(sorted)")
                let reference = try Self.observe(try memory.fetch(prefetched), paths: paths, model: model, sortingSets: true)
                let sortedObserved = try Self.observe(try sqlite.fetch(prefetched), paths: paths, model: model, sortingSets: true)
                #expect(sortedObserved == reference, "\(entity) \(paths) batch \(batchSize) sorted \(sorted)")
            }
        }
    }

    /// The data covers what it should: nil to-ones, empty to-manys, an empty ordered shelf.
    @Test func theDataHasNilsAndEmpties() throws {
        let (_, sqlite) = try Self.stores()
        let lines = try Self.observe(try sqlite.fetch(Self.request("Book", prefetching: ["author", "tags"], batchSize: 10)),
                                     paths: ["author", "tags"], model: sqlite.model, sortingSets: false)
        #expect(lines.contains { $0.contains(" author=b3(nil)") })
        #expect(lines.contains { $0.contains(" tags=b2({})") })
        let authors = try Self.observe(try sqlite.fetch(Self.request("Author", prefetching: ["books", "shelf"], batchSize: 0)),
                                       paths: ["books", "shelf"], model: sqlite.model, sortingSets: false)
        #expect(authors.contains { $0.hasPrefix("a4:") && $0.contains(" shelf=a4([])") })
        #expect(authors.contains { $0.hasPrefix("a5:") && $0.contains(" books=a5({})") })
    }

    /// Statements run while iterating the results and reading each object's relationships.
    static func statements(_ store: SQLiteStore, _ request: FetchRequest, read paths: [String]) throws -> [String] {
        let log = Mutex<[String]>([])
        store.database.setTrace { sql in log.withLock { $0.append(sql) } }
        defer { store.database.setTrace(nil) }
        _ = try observe(try store.fetch(request), paths: paths, model: store.model, sortingSets: false)
        return log.withLock { $0 }
    }

    @Test func prefetchingRunsAQueryPerBatchNotPerObject() throws {
        let (_, sqlite) = try Self.stores()
        let batchSize = 10
        let batches = (Self.bookCount + batchSize - 1) / batchSize
        let paths = ["author", "tags", "shelvedBy"]
        let prefetched = try Self.statements(sqlite, Self.request("Book", prefetching: paths, batchSize: batchSize), read: paths)
        // The fetch's own query, then one query per relationship per batch.
        #expect(prefetched.count == 1 + batches * paths.count, "\(prefetched.joined(separator: "\n"))")
        #expect(prefetched.filter { $0.contains(" IN (") }.count == batches * paths.count)
        let plain = try Self.statements(sqlite, Self.request("Book", prefetching: [], batchSize: batchSize), read: paths)
        // Each path is read twice per object (as a value and for relationshipIDs).
        #expect(plain.count >= 1 + 2 * Self.bookCount * paths.count)

        // A dotted path: one more query per batch for the second step.
        let dotted = try Self.statements(sqlite, Self.request("Book", prefetching: ["author.books"], batchSize: batchSize),
                                         read: ["author.books"])
        // (relationshipIDs of each book reads tags and shelvedBy, which are not prefetched.)
        #expect(dotted.count == 1 + batches * 2 + 2 * Self.bookCount)
        let all = try Self.statements(sqlite, Self.request("Book", prefetching: ["author.books", "tags", "shelvedBy"], batchSize: batchSize),
                                      read: ["author.books"])
        #expect(all.count == 1 + batches * 4)

        // Everything in one batch: one query per relationship.
        let single = try Self.statements(sqlite, Self.request("Book", prefetching: paths, batchSize: 0), read: paths)
        #expect(single.count == 1 + paths.count)
    }

    /// A batch of more owners than one `IN (…)` list binds: a query per chunk.
    @Test func largeBatchesAreReadInChunks() throws {
        let sqlite = try SQLiteStore.inMemory(model: try JSONModelFormat.read(Data(Self.json.utf8)))
        for a in 0..<3 { try sqlite.insert("Author", id: ObjectID("a\(a)"), ["name": .string("Author \(a)")]) }
        let count = 2 * RowKeyLists.limit + 17
        for b in 0..<count {
            try sqlite.insert("Book", id: ObjectID("b\(b)"), ["title": .string("Book \(b)")],
                              relationships: b % 4 == 0 ? [:] : ["author": [ObjectID("a\(b % 3)")]])
        }
        try sqlite.save()
        // Iterated (for-in), not mapped: Collection's map reads by position.
        func authors(_ paths: [String]) throws -> [String] {
            var lines: [String] = []
            for object in try sqlite.fetch(Self.request("Book", prefetching: paths, batchSize: 0)) {
                lines.append(try Self.render(.object(object), ["author"], sortingSets: false))
            }
            return lines
        }
        let plain = try authors([])
        let log = Mutex<[String]>([])
        sqlite.database.setTrace { sql in log.withLock { $0.append(sql) } }
        let prefetched = try authors(["author"])
        sqlite.database.setTrace(nil)
        #expect(prefetched == plain)
        #expect(log.withLock { $0.count } == 1 + 3)
    }

    @Test func objectsOfEarlierBatchesStillReadTheirRelationships() throws {
        let (_, sqlite) = try Self.stores()
        let plain = Array(try sqlite.fetch(Self.request("Book", prefetching: [], batchSize: 4)))
        let expected = try plain.map { try Self.render(.object($0), ["author", "books"], sortingSets: false) }
        var kept: [ManagedObject] = []
        for object in try sqlite.fetch(Self.request("Book", prefetching: ["author.books", "tags"], batchSize: 4)) {
            kept.append(object)
            // The first object's batch was replaced by later ones: it reads its own rows.
            #expect(try Self.render(.object(kept[0]), ["author", "books"], sortingSets: false) == expected[0])
        }
        #expect(try kept.map { try Self.render(.object($0), ["author", "books"], sortingSets: false) } == expected)
        #expect(kept.map { $0.relationshipIDs.map(\.ids) } == plain.map { $0.relationshipIDs.map(\.ids) })
    }

    @Test func changesWrittenAfterAPrefetchAreRead() throws {
        let (_, sqlite) = try Self.stores()
        var iterator = try sqlite.fetch(Self.request("Book", prefetching: ["author"], batchSize: 0, sorted: false)).makeIterator()
        let next = iterator.next()
        let first = try #require(next)
        #expect(try Self.render(.object(first), ["author"], sortingSets: false) == "b0(a0)")
        try sqlite.update(first.objectID, attributes: [:], relationships: ["author": [ObjectID("a5")]])
        try sqlite.save()
        #expect(try Self.render(.object(first), ["author"], sortingSets: false) == "b0(a5)")
        let following = iterator.next()
        let second = try #require(following)
        #expect(try Self.render(.object(second), ["author", "books"], sortingSets: true) == "b1(a1({b1 b11 b16 b21 b26 b36 b41 b46 b6}))")
    }

    @Test(arguments: ["title", "nope", "author.name", "author.nope", "author.", "", "@count", "tags.@count", "author.books.year"])
    func aBadPathIsTheSameErrorInBothStores(path: String) throws {
        let (memory, sqlite) = try Self.stores()
        for resultType in [FetchResultType.objects, .count, .objectIDs, .dictionaries] {
            var request = Self.request("Book", prefetching: ["author", path], batchSize: 0)
            request.resultType = resultType
            let inMemory = #expect(throws: StoreError.self) { try memory.execute(request) }
            let inSQLite = #expect(throws: StoreError.self) { try sqlite.execute(request) }
            #expect(inMemory == inSQLite)
            #expect(inSQLite?.code == .invalidRequest)
            #expect(inSQLite.map { "\($0)".contains(path.isEmpty ? "''" : "'\(path)'") } == true, "\(String(describing: inSQLite))")
        }
        var sectioned = Self.request("Book", prefetching: [path], batchSize: 0)
        sectioned.sectionNameKeyPath = "year"
        let inMemory = #expect(throws: StoreError.self) { try memory.fetchSections(sectioned) }
        let inSQLite = #expect(throws: StoreError.self) { try sqlite.fetchSections(sectioned) }
        #expect(inMemory == inSQLite)
    }

    /// A database Sift did not create: a foreign key to another column than the key (read
    /// through that column, both ways), one to the key, and a text key in an integer column.
    @Test func introspectedDatabasesPrefetchAsTheyRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-prefetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("labels.db")
        let database = try SQLiteDatabase(path: url.path, options: [.create])
        try database.execute(#"""
            CREATE TABLE Label (id INTEGER PRIMARY KEY, code TEXT UNIQUE, name TEXT);
            CREATE TABLE Record (id INTEGER PRIMARY KEY, title TEXT, label_id TEXT REFERENCES Label(code));
            CREATE TABLE Track (id INTEGER PRIMARY KEY, name TEXT, record_id INTEGER REFERENCES Record);
            INSERT INTO Label VALUES (1, 'BN', 'Blue Note'), (2, 'IM', 'Impulse'), (3, 'EC', 'ECM');
            INSERT INTO Record VALUES (10, 'Blue', 'BN'), (11, 'Love', 'IM'), (12, 'Kind', 'BN'), (13, 'Loose', NULL), (14, 'Gone', 'XX');
            INSERT INTO Track VALUES (100, 'One', 12), (101, 'Two', '10'), (102, 'Three', 12), (103, 'Four', 10), (104, 'Five', NULL);
            """#)
        let store = try SQLiteStore.open(at: url)
        let cases: [(String, [String])] = [
            ("Label", ["records"]), ("Label", ["records.tracks"]), ("Record", ["label", "tracks"]),
            ("Track", ["record.label.records"]),
        ]
        for (entity, paths) in cases {
            for batchSize in [0, 2] {
                var prefetched = FetchRequest(entityName: entity)
                prefetched.fetchBatchSize = batchSize
                let plain = prefetched
                prefetched.relationshipKeyPathsForPrefetching = paths
                let expected = try Self.observe(try store.fetch(plain), paths: paths, model: store.model, sortingSets: false)
                let observed = try Self.observe(try store.fetch(prefetched), paths: paths, model: store.model, sortingSets: false)
                #expect(observed == expected, "\(entity) \(paths) batch \(batchSize)")
            }
        }
        var request = FetchRequest(entityName: "Label")
        request.relationshipKeyPathsForPrefetching = ["records.tracks"]
        let lines = try Self.statements(store, request, read: ["records.tracks"])
        #expect(lines.count == 3, "\(lines)")
    }

    @Test func sectionsPrefetchAsTheyAreRead() throws {
        let (memory, sqlite) = try Self.stores()
        var request = Self.request("Book", prefetching: ["author", "tags"], batchSize: 3)
        request.sortDescriptors = [SortKey("year", ascending: true), SortKey("title", ascending: true)]
        request.sectionNameKeyPath = "year"
        let sections = try sqlite.fetchSections(request)
        let reference = try memory.fetchSections(request)
        #expect(sections.sections.count == reference.sections.count)
        for (section, expected) in zip(sections.sections, reference.sections) {
            #expect(try Self.observe(section.objects, paths: ["author", "tags"], model: sqlite.model, sortingSets: true)
                    == Self.observe(expected.objects, paths: ["author", "tags"], model: sqlite.model, sortingSets: true))
        }
    }

    /// A page's sections, grouped in memory from its rows, by a key path through a relationship:
    /// the relationship is loaded for the page's objects at once (a query), not read by each
    /// object as it is grouped (a query per object), and the sections are the in-memory store's.
    @Test(arguments: [("author.name", 1), ("author.books.@count", 2), ("title", 0)])
    func pageSectionsLoadTheRelationshipsOfTheirKeyPathOnce(keyPath: String, relationshipQueries: Int) throws {
        let (memory, sqlite) = try Self.stores()
        var request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortKey(keyPath, ascending: true), SortKey("title", ascending: true)]
        request.sectionNameKeyPath = keyPath
        request.fetchLimit = 12
        let log = Mutex<[String]>([])
        sqlite.database.setTrace { sql in log.withLock { $0.append(sql) } }
        let sections = try sqlite.fetchSections(request)
        sqlite.database.setTrace(nil)
        let statements = log.withLock { $0 }
        // The page's query, then one per relationship the key path crosses.
        #expect(statements.count == 1 + relationshipQueries, "\(statements.joined(separator: "\n"))")
        #expect(statements.dropFirst().allSatisfy { $0.contains(" IN (") })
        let reference = try memory.fetchSections(request)
        #expect(sections.sections.map(\.name) == reference.sections.map(\.name))
        #expect(sections.sections.map { $0.objects.map(\.objectID) } == reference.sections.map { $0.objects.map(\.objectID) })
    }
}
