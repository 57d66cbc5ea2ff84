import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// One store, many threads: fetches of every kind (objects with prefetching, counts, IDs,
/// sections, dictionaries, regular expressions, relationships read through objects) from eight
/// threads at once give the answers they give alone, on every kind of store; and fetches keep
/// working while another thread changes and saves the store. `scripts/sanitize thread` runs
/// these under ThreadSanitizer.
@Suite struct ConcurrentFetchTests {
    enum Kind: String, CaseIterable, Sendable {
        case sqliteFile, sqliteInMemory, jsonFile, atomicInMemory
    }

    static let books = 240

    /// A store of the kind holding `books` books (of 12 authors, tagged from 5 tags), and its
    /// folder (nil in memory), which the test removes.
    static func store(_ kind: Kind) throws -> (any PersistentStore, URL?) {
        let model = try SQLTestModel.model()
        var directory: URL?
        let store: any PersistentStore
        switch kind {
        case .sqliteInMemory: store = try SQLiteStore.inMemory(model: model)
        case .atomicInMemory: store = AtomicStore.inMemory(model: model)
        case .sqliteFile, .jsonFile:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-concurrent-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            directory = folder
            store = kind == .sqliteFile ? try SQLiteStore.create(at: folder.appendingPathComponent("books.sqlite"), model: model)
                                        : try AtomicStore.create(at: folder.appendingPathComponent("books.json"), model: model)
        }
        for n in 0..<5 { try store.insert("Tag", id: ObjectID("t\(n)"), ["name": .string("tag \(n)")]) }
        for n in 0..<12 { try store.insert("Author", id: ObjectID("a\(n)"), ["name": .string("Author \(n)")]) }
        for n in 0..<books {
            try store.insert(n % 7 == 0 ? "Ebook" : "Book", id: ObjectID("b\(n)"),
                             ["title": .string("Book \(n) \(["alpha", "Beta", "gamma", "Délta"][n % 4])"), "year": .int(Int64(1950 + n % 60)),
                              "price": .double(Double(n % 23) + 0.5)],
                             relationships: ["author": [ObjectID("a\(n % 12)")], "tags": (0..<(n % 3)).map { ObjectID("t\((n + $0) % 5)") }])
        }
        try store.save()
        return (store, directory)
    }

    /// Each fetch, run and described as text (objects with their relationships read).
    static let fetches: [(String, @Sendable (any PersistentStore) throws -> String)] = [
        ("objects with prefetching", { store in
            var request = try FetchRequest(statement: "Book WHERE year > 1970 AND ANY tags.name == 'tag 1' SORT BY title")
            request.relationshipKeyPathsForPrefetching = ["author", "tags"]
            request.fetchBatchSize = 16
            return try store.fetch(request).map { book in
                let relationships = book.relationshipIDs.map { "\($0.name)=\($0.ids.map(\.rawValue).sorted())" }
                return "\(book.objectID) \(relationships)"
            }.joined(separator: ";")
        }),
        ("count", { store in "\(try store.count(FetchRequest(statement: "Book WHERE title CONTAINS[cd] 'delta' OR price < 3")))" }),
        ("object IDs, limit and offset", { store in
            guard case .objectIDs(let ids) = try store.execute(FetchRequest(statement: "Book SORT BY price DESC, title LIMIT 30 OFFSET 5").with(\.resultType, .objectIDs)) else { return "?" }
            return ids.map(\.rawValue).joined(separator: ",")
        }),
        ("sections", { store in
            var request = try FetchRequest(statement: "Book WHERE year < 1990 SORT BY author.name, title")
            request.sectionNameKeyPath = "author.name"
            return try store.fetchSections(request).sections.map { "\($0.name):\($0.numberOfObjects)" }.joined(separator: ",")
        }),
        ("dictionaries", { store in
            guard case .dictionaries(let rows) = try store.execute(FetchRequest(statement: "SELECT author.name AS name, count:(title) AS n, max:(price) AS top FROM Book GROUP BY author.name SORT BY name")) else { return "?" }
            return rows.map { ValueText.text(.dictionary($0)) }.joined(separator: ";")
        }),
        ("regular expressions", { store in
            "\(try store.fetch(FetchRequest(statement: "Book WHERE title MATCHES '.*[0-9]{2} (alpha|gamma)' SORT BY year")).map(\.objectID.rawValue))"
        }),
        ("relationships through objects", { store in
            try store.fetch(FetchRequest(statement: "Author SORT BY name")).map { author in
                // Reading the to-many through the object (a query per object on SQLite).
                switch try author.value(forKey: "books") {
                case .set(let books), .array(let books): return "\(author.objectID)=\(books.count)"
                default: return "?"
                }
            }.joined(separator: ",")
        }),
        ("one object by ID", { store in
            guard let book = store.object(with: ObjectID("b17")) else { return "none" }
            return "\(ValueText.text(book[attribute: "title"] ?? .null)) \(book.relationshipIDs.map(\.ids))"
        }),
    ]

    @Test(arguments: Kind.allCases)
    func fetchesFromManyThreadsGiveTheAnswersTheyGiveAlone(_ kind: Kind) throws {
        let (store, directory) = try Self.store(kind)
        defer { if let directory { try? FileManager.default.removeItem(at: directory) } }
        let expected = try Self.fetches.map { try $0.1(store) }
        for (fetch, answer) in zip(Self.fetches, expected) {
            #expect(!answer.isEmpty && !answer.contains("?") && answer != "[]" && answer != "none", "\(fetch.0): \(answer)")
        }
        nonisolated(unsafe) let shared = store
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<6 {
                // Each thread starts at another fetch, so different fetches overlap.
                for step in 0..<Self.fetches.count {
                    let index = (step + thread + round) % Self.fetches.count
                    do {
                        let answer = try Self.fetches[index].1(shared)
                        if answer != expected[index] { failures.add("\(Self.fetches[index].0): \(answer)") }
                    } catch {
                        failures.add("\(Self.fetches[index].0): \(error)")
                    }
                }
            }
        }
        #expect(failures.all == [], "\(kind)")
    }

    @Test(arguments: Kind.allCases)
    func fetchesGoOnWhileAnotherThreadChangesTheStore(_ kind: Kind) throws {
        let (store, directory) = try Self.store(kind)
        defer { if let directory { try? FileManager.default.removeItem(at: directory) } }
        nonisolated(unsafe) let shared = store
        let failures = Failures()
        let inserts = 40
        DispatchQueue.concurrentPerform(iterations: 5) { thread in
            do {
                if thread == 0 {
                    // The writer: inserts, updates and deletes, saving every few changes.
                    for n in 0..<inserts {
                        try shared.insert("Book", id: ObjectID("new\(n)"), ["title": .string("New \(n)"), "year": .int(2020)],
                                          relationships: ["author": [ObjectID("a\(n % 12)")]])
                        try shared.update(ObjectID("b\(n)"), ["price": .double(1)])
                        if n % 4 == 3 { try shared.save() }
                    }
                    try shared.delete(ObjectID("new0"))
                    try shared.save()
                } else {
                    for _ in 0..<25 {
                        let count = try shared.count(FetchRequest(statement: "Book WHERE year == 2020"))
                        if count < 0 || count > inserts { failures.add("count \(count)") }
                        _ = try shared.fetch(FetchRequest(statement: "Book WHERE author.name BEGINSWITH 'Author 1' SORT BY price")).map { $0.relationshipIDs.count }
                        var sectioned = try FetchRequest(statement: "Book SORT BY year")
                        sectioned.sectionNameKeyPath = "year"
                        _ = try shared.fetchSections(sectioned).sections.count
                    }
                }
            } catch {
                failures.add("thread \(thread): \(error)")
            }
        }
        #expect(failures.all == [], "\(kind)")
        #expect(try store.count(FetchRequest(statement: "Book WHERE year == 2020")) == inserts - 1)
        #expect(try store.count(FetchRequest(statement: "Book WHERE price == 1")) == inserts)
    }
}

extension FetchRequest {
    /// The request with one property changed.
    func with<T>(_ key: WritableKeyPath<FetchRequest, T>, _ value: T) -> FetchRequest {
        var copy = self
        copy[keyPath: key] = value
        return copy
    }
}

/// Errors collected from many threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func add(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        messages.append(message)
    }

    var all: [String] {
        lock.lock(); defer { lock.unlock() }
        return messages
    }
}
