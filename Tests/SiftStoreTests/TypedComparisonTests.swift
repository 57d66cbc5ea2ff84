import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// LANGUAGE.md §3's typed rules on every store kind (``TypedComparisons``): a string compared
/// with a Date attribute is ISO 8601, an ordering between kinds with no common order and a
/// string operator on an attribute that holds no strings are errors before running, with the
/// same message everywhere; equality across kinds stays false.
@Suite struct TypedComparisonTests {
    static func notes(_ kind: StoreKind, in directory: URL) throws -> any PersistentStore {
        try kind.seeded("Notes", in: directory)
    }

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A predicate on Note and the titles it matches, sorted.
    static func titles(_ store: any PersistentStore, _ predicate: String) throws -> [String] {
        try store.fetch(FetchRequest(entityName: "Note", predicate: predicate)).map { object in
            if case .string(let title)? = object[attribute: "title"] { return title }
            return "?"
        }.sorted()
    }

    @Test(arguments: StoreKind.allCases, [
        (#"updatedAt > "2017-07-08T00:00:00Z""#, #"updatedAt > CAST("2017-07-08T00:00:00Z", "NSDate")"#),
        (#"updatedAt >= "2017-07-07""#, #"updatedAt >= CAST("2017-07-07T00:00:00Z", "NSDate")"#),
        (#"createdAt == "2017-07-05T12:25:59Z""#, #"createdAt == CAST("2017-07-05T12:25:59Z", "NSDate")"#),
        (#""2017-07-05 12:25:59" != createdAt"#, #"createdAt != CAST("2017-07-05T12:25:59Z", "NSDate")"#),
        (#"updatedAt BETWEEN {"2017-07-02", "2017-07-07T12:00:00+02:00"}"#,
         #"updatedAt BETWEEN {CAST("2017-07-02T00:00:00Z", "NSDate"), CAST("2017-07-07T10:00:00Z", "NSDate")}"#),
        (#"createdAt IN {"2017-07-01T10:00:00Z", "2017-07-03T09:00:00Z"}"#,
         #"createdAt IN {CAST("2017-07-01T10:00:00Z", "NSDate"), CAST("2017-07-03T09:00:00Z", "NSDate")}"#),
        (#"ANY notes.updatedAt < "2017-07-03""#, #"ANY notes.updatedAt < CAST("2017-07-03T00:00:00Z", "NSDate")"#),
    ])
    func aStringComparedWithADateIsISO8601(_ kind: StoreKind, _ cases: (String, String)) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.notes(kind, in: directory)
        let (written, meant) = cases
        let entity = written.contains("notes.") ? "Category" : "Note"
        let a = try store.fetch(FetchRequest(entityName: entity, predicate: written)).objectIDs
        let b = try store.fetch(FetchRequest(entityName: entity, predicate: meant)).objectIDs
        #expect(a == b, "\(written)")
        #expect(!a.isEmpty, "\(written)")
    }

    /// A string computed from arguments (`%@['since']`) is read as a date too.
    @Test(arguments: StoreKind.allCases)
    func aStringFromADictionaryArgumentIsADate(_ kind: StoreKind) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.notes(kind, in: directory)
        let since: [String: Any] = ["since": "2017-07-08T00:00:00Z"]
        let computed = try FetchRequest(entityName: "Note", predicate: "updatedAt > %@['since']", arguments: [since])
        let literal = try FetchRequest(entityName: "Note", predicate: #"updatedAt > CAST("2017-07-08T00:00:00Z", "NSDate")"#)
        #expect(try store.fetch(computed).objectIDs == store.fetch(literal).objectIDs)
        #expect(try store.count(literal) == 2)
    }

    @Test(arguments: StoreKind.allCases, [
        (#"updatedAt > "yesterday""#,
         #""yesterday" is not an ISO 8601 date; updatedAt is a Date attribute of Note (write a date such as "2017-07-08T00:00:00Z")"#),
        (#"createdAt IN {"2017-07-01", "July"}"#,
         #""July" is not an ISO 8601 date; createdAt is a Date attribute of Note (write a date such as "2017-07-08T00:00:00Z")"#),
        ("title < 5", "'<' cannot order title, a String attribute of Note, and the integer 5"),
        ("5 >= title", "'>=' cannot order title, a String attribute of Note, and the integer 5"),
        ("title BETWEEN {1, 5}", "'BETWEEN' cannot order title, a String attribute of Note, and the integer 1"),
        ("updatedAt > 3.5", "'>' cannot order updatedAt, a Date attribute of Note, and the double 3.5"),
        ("title > createdAt", "'>' cannot order title, a String attribute of Note, and createdAt, a Date attribute"),
        ("ANY tags.name < 3", "'<' cannot order tags.name, a String attribute of Tag, and the integer 3"),
        // A year, month or day written as text is that year's, month's or day's range of dates.
        (#"createdAt BEGINSWITH "2017""#,
         #"BEGINSWITH needs a string, and createdAt is a Date attribute of Note (compare it with dates: createdAt >= "2017-01-01" AND createdAt < "2018-01-01")"#),
        (#"updatedAt LIKE "2019*""#,
         #"LIKE needs a string, and updatedAt is a Date attribute of Note (compare it with dates: updatedAt >= "2019-01-01" AND updatedAt < "2020-01-01")"#),
        (#"updatedAt BEGINSWITH "2016-12""#,
         #"BEGINSWITH needs a string, and updatedAt is a Date attribute of Note (compare it with dates: updatedAt >= "2016-12-01" AND updatedAt < "2017-01-01")"#),
        (#"createdAt BEGINSWITH "2017-07-05""#,
         #"BEGINSWITH needs a string, and createdAt is a Date attribute of Note (compare it with dates: createdAt >= "2017-07-05" AND createdAt < "2017-07-06")"#),
        (#"createdAt CONTAINS "July""#,
         #"CONTAINS needs a string, and createdAt is a Date attribute of Note (compare it with dates: createdAt >= "2011-01-01")"#),
    ])
    func typeErrorsComeBeforeRunning(_ kind: StoreKind, _ cases: (String, String)) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.notes(kind, in: directory)
        let (predicate, message) = cases
        for resultType in [FetchResultType.objects, .count, .dictionaries] {
            var request = try FetchRequest(entityName: "Note", predicate: predicate)
            request.resultType = resultType
            #expect(throws: StoreError.self, "\(predicate)") { try store.execute(request) }
            do {
                _ = try store.execute(request)
            } catch let error as StoreError {
                #expect(error.code == .typeMismatch)
                #expect(error.message == message)
            }
        }
    }

    /// Equality across kinds is no error: `==` is false, `!=` true (LANGUAGE.md §3).
    @Test(arguments: StoreKind.allCases, [
        ("title == 5", 0), ("title != 5", 5), ("createdAt == 5", 0), ("createdAt != 5", 5), ("createdAt == YES", 0),
        ("title IN {1, 2}", 0), ("title == nil", 0), ("contents != nil", 4), ("title < nil", 0),
    ])
    func equalityAcrossKindsIsFalse(_ kind: StoreKind, _ cases: (String, Int)) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.notes(kind, in: directory)
        let (predicate, count) = cases
        #expect(try store.count(FetchRequest(entityName: "Note", predicate: predicate)) == count, "\(predicate)")
    }

    /// An Undefined attribute keeps each value's kind on every store, and is never typed.
    @Test(arguments: StoreKind.allCases, [
        ("misc == 5", ["1"]), ("misc == 'abc'", ["2"]), ("misc > 1", ["1", "3"]), ("misc < 'b'", ["2"]), ("misc == YES", ["4"]),
        ("misc == nil", ["5"]), ("misc != 5", ["2", "3", "4", "5"]), ("misc BEGINSWITH 'a'", ["2"]), ("misc IN {2.5, 'abc'}", ["2", "3"]),
        ("misc BETWEEN {1, 3}", ["3", "4"]), ("misc < 5 OR misc > 'a'", ["2", "3", "4"]),
    ])
    func anUndefinedAttributeKeepsEachValuesKind(_ kind: StoreKind, _ cases: (String, [String])) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try DataModel(name: "Things", entities: [EntityDescription(name: "Thing", attributes: [AttributeDescription(name: "misc", type: .undefined)])])
        let store = try kind.make(model, name: "things", in: directory)
        for (id, value) in [("1", Value.int(5)), ("2", .string("abc")), ("3", .double(2.5)), ("4", .bool(true)), ("5", .null)] {
            _ = try store.insert("Thing", id: ObjectID(id), ["misc": value])
        }
        try store.save()
        let reopened = try kind.reopen(store) ?? store
        let (predicate, expected) = cases
        let ids = try reopened.fetch(FetchRequest(entityName: "Thing", predicate: predicate)).objectIDs.map(\.rawValue).sorted()
        #expect(ids == expected, "\(predicate)")
        #expect(throws: StoreError.self) { try store.insert("Thing", ["misc": .date(Date())]) }
    }
}
