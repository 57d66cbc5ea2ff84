import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
@testable import SiftStore
import Testing

/// A JSON object given as an argument or variable (the CLI's `--arg`/`--var`, a JSON fetch
/// request's "arguments"/"variables") is a dictionary unless it is one of the typed forms:
/// `x IN %@` tests its values, `%@['key']` reads a key. Every store kind gives the same
/// answer; SQLite, which has no dictionaries, runs the membership test in memory.
@Suite struct DictionaryArgumentTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// A JSON fetch request on the Notes seed app.
        let request: String
        /// The IDs it finds, sorted.
        let ids: [String]
        var testDescription: String { request }
    }

    static let cases: [Case] = [
        Case(request: #"{"entityName": "Note", "predicate": "title IN %@", "arguments": [{"a": "Groceries", "b": "meeting notes", "c": "nope"}]}"#,
             ids: ["N3", "N4"]),
        Case(request: #"{"entityName": "Note", "predicate": "title IN[c] %@", "arguments": [{"a": "GROCERIES"}]}"#, ids: ["N3"]),
        Case(request: #"{"entityName": "Note", "predicate": "title IN %@", "arguments": [{}]}"#, ids: []),
        Case(request: #"{"entityName": "Note", "predicate": "NOT title IN %@", "arguments": [{"$date": 1, "x": "Groceries"}]}"#,
             ids: ["N1", "N2", "N4", "N5"]),
        Case(request: #"{"entityName": "Note", "predicate": "category IN %@", "arguments": [{"work": {"$ref": "C1"}, "none": null}]}"#,
             ids: ["N1", "N2", "N4"]),
        Case(request: #"{"entityName": "Note", "predicate": "ANY tags.name IN %@", "arguments": [{"t": "Ideas"}]}"#, ids: ["N4", "N5"]),
        Case(request: #"{"entityName": "Note", "predicate": "SELF IN $notes", "variables": {"notes": {"first": {"$ref": "N1"}, "last": {"$ref": "N5"}}}}"#,
             ids: ["N1", "N5"]),
        Case(request: #"{"entityName": "Note", "predicate": "title == %@['t']", "arguments": [{"t": "Groceries", "n": 2}]}"#, ids: ["N3"]),
        Case(request: #"{"entityName": "Note", "predicate": "updatedAt > %@['since']", "arguments": [{"since": {"$date": "2017-07-07T00:00:00Z"}}]}"#,
             ids: ["N1", "N3", "N4"]),
        Case(request: #"{"entityName": "Note", "predicate": "contents == $d['c']", "variables": {"d": {"c": null}}}"#, ids: ["N2"]),
        Case(request: #"{"entityName": "Note", "predicate": "title == %@['missing']", "arguments": [{"t": "Groceries"}]}"#, ids: []),
        Case(request: #"{"entityName": "Note", "predicate": "title IN %@['titles']", "arguments": [{"titles": ["Groceries", "Café ideas"]}]}"#,
             ids: ["N3", "N5"]),
    ]

    @Test(arguments: cases, StoreKind.allCases)
    func everyStoreGivesTheSameAnswer(_ c: Case, _ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.seeded("Notes", in: directory)
        let request = try FetchRequest(json: Data(c.request.utf8))
        #expect(try store.fetch(request).objectIDs.map(\.rawValue).sorted() == c.ids)
    }

    /// SQLite has no dictionaries: a membership test in one runs in memory, after the SQL; a
    /// key read from one is a constant, compiled into the SQL.
    @Test func sqliteRunsMembershipInMemory() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try #require(try StoreKind.sqlite.seeded("Notes", in: directory) as? SQLiteStore)
        let membership = try store.generatedSQL(for: FetchRequest(json: Data(#"{"entityName": "Note", "predicate": "title IN %@", "arguments": [{"a": "Groceries"}]}"#.utf8)))
        #expect(membership.inMemoryPredicate == #"title IN {"a": "Groceries"}"#)
        #expect(membership.inMemoryReason?.contains("dictionary") == true)
        let keyRead = try store.generatedSQL(for: FetchRequest(json: Data(#"{"entityName": "Note", "predicate": "title == %@['t']", "arguments": [{"t": "Groceries"}]}"#.utf8)))
        #expect(keyRead.inMemoryPredicate == nil)
        #expect(keyRead.bindings.map(\.description) == ["'Groceries'"])
    }

    struct ArgumentCase: Sendable, CustomTestStringConvertible {
        let json: String
        /// The argument's canonical form, bound to `%@`.
        let printed: String
        var testDescription: String { json }
    }

    /// Only an object with one typed key (and a string value) is a typed value; every other
    /// object is a dictionary, in its keys' order.
    static let arguments: [ArgumentCase] = [
        ArgumentCase(json: #"{"b": 1, "a": [2.5, null]}"#, printed: #"{"b": 1, "a": {2.5, nil}}"#),
        ArgumentCase(json: "{}", printed: "{:}"),
        ArgumentCase(json: #"{"$date": 1, "x": 2}"#, printed: #"{"$date": 1, "x": 2}"#),
        ArgumentCase(json: #"{"$date": 1}"#, printed: #"{"$date": 1}"#),
        ArgumentCase(json: #"{"$ref": 5}"#, printed: #"{"$ref": 5}"#),
        ArgumentCase(json: #"{"$ref": "N1", "x": 1}"#, printed: #"{"$ref": "N1", "x": 1}"#),
        ArgumentCase(json: #"{"$other": "x"}"#, printed: #"{"$other": "x"}"#),
        ArgumentCase(json: #"{"in": {"$ref": "N1"}, "at": {"$date": "2001-01-01T00:01:00Z"}}"#,
                     printed: #"{"in": CAST("N1", "NSManagedObjectID"), "at": CAST(60.0, "NSDate")}"#),
        ArgumentCase(json: #"{"$ref": "N1"}"#, printed: #"CAST("N1", "NSManagedObjectID")"#),
        ArgumentCase(json: #"{"$date": "2001-01-01T00:01:00Z"}"#, printed: #"CAST(60.0, "NSDate")"#),
        ArgumentCase(json: #"{"$decimal": "1.5"}"#, printed: #"CAST("1.5", "NSDecimalNumber")"#),
        ArgumentCase(json: #"{"$uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#, printed: #"CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID")"#),
        ArgumentCase(json: #"{"$data": "AQI="}"#, printed: #"CAST("AQI=", "NSData")"#),
    ]

    /// A dictionary where a key path or a number is needed is an error that says so.
    @Test(arguments: [("%K == 1", "argument 1 for %K: %K needs a key path string, got a dictionary"),
                      ("x == %d", "argument 1 for %d: needs an integer, got a dictionary")])
    func dictionariesAreNoKeyPathsOrNumbers(_ format: String, _ message: String) throws {
        let argument = try JSONArguments.argument(json: #"{"a": 1}"#)
        #expect(throws: ParseError.self) { try PredicateNode(format: format, arguments: [argument]) }
        do {
            _ = try PredicateNode(format: format, arguments: [argument])
        } catch {
            #expect(error.message == message)
        }
    }

    @Test(arguments: arguments)
    func objectsAreDictionariesUnlessTyped(_ c: ArgumentCase) throws {
        let predicate = try PredicateNode(format: "x == %@", arguments: [try JSONArguments.argument(json: c.json)])
        #expect(predicate.description == "x == " + c.printed)
        #expect(try PredicateNode(format: predicate.description) == predicate)
    }
}
