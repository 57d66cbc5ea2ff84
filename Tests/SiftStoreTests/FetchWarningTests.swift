import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// "Never a silent zero" (LANGUAGE.md §3, issue 28): a comparison the model's types make always
/// false or always true is a ``FetchWarning`` naming it and saying what was meant, with the
/// range of the comparison — and the fetch answers as it would without it, on every store.
@Suite struct FetchWarningTests {
    static let model: DataModel = {
        do {
            return try JSONModelFormat.read(Data(#"""
                {"name": "Music", "entities": [
                  {"name": "Artist", "attributes": [{"name": "ArtistId", "type": "Integer 64"}, {"name": "Name", "type": "String"}],
                   "relationships": [{"name": "albums", "destination": "Album", "toMany": true, "inverse": "Artist"}]},
                  {"name": "Album", "attributes": [{"name": "AlbumId", "type": "Integer 64"}, {"name": "Title", "type": "String"}],
                   "relationships": [{"name": "Artist", "destination": "Artist", "inverse": "albums"},
                                     {"name": "tracks", "destination": "Track", "toMany": true, "inverse": "Album"}]},
                  {"name": "Track", "attributes": [
                     {"name": "Name", "type": "String"}, {"name": "Milliseconds", "type": "Integer 64"},
                     {"name": "Explicit", "type": "Boolean"}, {"name": "Added", "type": "Date"},
                     {"name": "Code", "type": "UUID"}, {"name": "Extra", "type": "Undefined"}],
                   "relationships": [{"name": "Album", "destination": "Album", "inverse": "tracks"}]},
                  {"name": "Player", "attributes": [{"name": "playerID", "type": "String"}, {"name": "nameLast", "type": "String"}],
                   "uniquenessConstraints": [["playerID"]],
                   "relationships": [{"name": "battings", "destination": "Batting", "toMany": true, "inverse": "player"}]},
                  {"name": "Batting", "attributes": [{"name": "HR", "type": "Integer 64"}],
                   "relationships": [{"name": "player", "destination": "Player", "inverse": "battings"}]}
                ]}
                """#.utf8))
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// A store of every kind with a few objects.
    static func store(_ kind: StoreKind, in directory: URL) throws -> any PersistentStore {
        let store = try kind.make(model, name: "music", in: directory)
        _ = try store.insert("Artist", id: "A1", ["ArtistId": .int(1), "Name": .string("AC/DC")])
        _ = try store.insert("Artist", id: "A3", ["ArtistId": .int(3), "Name": .string("Aerosmith")])
        _ = try store.insert("Album", id: "L1", ["AlbumId": .int(1), "Title": .string("Back in Black")])
        _ = try store.insert("Album", id: "L2", ["AlbumId": .int(2), "Title": .string("Toys in the Attic")])
        try store.update("L1", attributes: [:], relationships: ["Artist": ["A1"]])
        try store.update("L2", attributes: [:], relationships: ["Artist": ["A3"]])
        let added = try #require(ISO8601.date(from: "2021-05-01"))
        _ = try store.insert("Track", id: "T1", ["Name": .string("Love Song"), "Milliseconds": .int(343719), "Explicit": .bool(true),
                                                 "Added": .date(added), "Extra": .string("343719")])
        _ = try store.insert("Track", id: "T2", ["Name": .string("5"), "Milliseconds": .int(5), "Explicit": .bool(false), "Extra": .int(5)])
        try store.update("T1", attributes: [:], relationships: ["Album": ["L1"]])
        try store.save()
        return try kind.reopen(store) ?? store
    }

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-warnings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let code: FetchWarning.Code
        let message: String
        let suggestion: String?
        /// The comparison as the warning's range covers it.
        let written: String
        /// What the fetch counts (the same with or without the warning).
        let count: Int
        var testDescription: String { statement }
    }

    static let cases: [Case] = [
        Case(statement: "COUNT Album WHERE Artist == 3", code: .kindMismatch,
             message: "Artist == 3 is always false: Artist is a to-one relationship of Album to Artist, and an object never equals a number",
             suggestion: "Artist.ArtistId == 3", written: "Artist == 3", count: 0),
        Case(statement: #"COUNT Track WHERE Milliseconds == "343719""#, code: .kindMismatch,
             message: #"Milliseconds == "343719" is always false: Milliseconds is an Integer 64 attribute of Track, and a number never equals a string"#,
             suggestion: "Milliseconds == 343719", written: #"Milliseconds == "343719""#, count: 0),
        Case(statement: #"COUNT Track WHERE Name LIKE "%Love%""#, code: .sqlWildcard,
             message: #"Name LIKE "%Love%" reads '%' as itself: LIKE's wildcards are * (any characters) and ? (one character)"#,
             suggestion: #"Name LIKE "*Love*""#, written: #"Name LIKE "%Love%""#, count: 0),
        Case(statement: "COUNT Track WHERE Name == 5", code: .kindMismatch,
             message: "Name == 5 is always false: Name is a String attribute of Track, and a string never equals a number",
             suggestion: #"Name == "5""#, written: "Name == 5", count: 0),
        Case(statement: #"COUNT Track WHERE Name != 5"#, code: .kindMismatch,
             message: "Name != 5 is always true: Name is a String attribute of Track, and a string never equals a number",
             suggestion: #"Name != "5""#, written: "Name != 5", count: 2),
        Case(statement: #"COUNT Track WHERE Explicit == "yes""#, code: .kindMismatch,
             message: #"Explicit == "yes" is always false: Explicit is a Boolean attribute of Track, and a boolean never equals a string"#,
             suggestion: "Explicit == 1", written: #"Explicit == "yes""#, count: 0),
        Case(statement: "COUNT Track WHERE Added == 2021", code: .kindMismatch,
             message: "Added == 2021 is always false: Added is a Date attribute of Track, and a date never equals a number",
             suggestion: #"Added >= "2021-01-01" AND Added < "2022-01-01""#, written: "Added == 2021", count: 0),
        Case(statement: #"COUNT Track WHERE Code == "3F2504E0-4F89-41D3-9A0C-0305E82C3301""#, code: .kindMismatch,
             message: #"Code == "3F2504E0-4F89-41D3-9A0C-0305E82C3301" is always false: Code is a UUID attribute of Track, and a UUID never equals a string"#,
             suggestion: #"Code == CAST("3F2504E0-4F89-41D3-9A0C-0305E82C3301", "NSUUID")"#,
             written: #"Code == "3F2504E0-4F89-41D3-9A0C-0305E82C3301""#, count: 0),
        Case(statement: #"COUNT Track WHERE Milliseconds IN {"5", "343719"}"#, code: .kindMismatch,
             message: #"Milliseconds IN {"5", "343719"} is always false: Milliseconds is an Integer 64 attribute of Track, and a number never equals a string"#,
             suggestion: "Milliseconds IN {5, 343719}", written: #"Milliseconds IN {"5", "343719"}"#, count: 0),
        Case(statement: "COUNT Artist WHERE albums == 1", code: .kindMismatch,
             message: "albums == 1 is always false: albums is a to-many relationship of Artist to Album, and an object never equals a number",
             suggestion: "albums.@count == 1", written: "albums == 1", count: 0),
        Case(statement: #"COUNT Album WHERE Artist == "AC/DC""#, code: .kindMismatch,
             message: #"Artist == "AC/DC" is always false: Artist is a to-one relationship of Album to Artist, and an object never equals a string"#,
             suggestion: #"Artist.Name == "AC/DC""#, written: #"Artist == "AC/DC""#, count: 0),
        Case(statement: #"COUNT Album WHERE Artist BEGINSWITH "A""#, code: .kindMismatch,
             message: #"Artist BEGINSWITH "A" is always false: Artist is a to-one relationship of Album to Artist, and an object is no string"#,
             suggestion: #"Artist.Name BEGINSWITH "A""#, written: #"Artist BEGINSWITH "A""#, count: 0),
        Case(statement: #"COUNT Batting WHERE player == "ruthba01""#, code: .kindMismatch,
             message: #"player == "ruthba01" is always false: player is a to-one relationship of Batting to Player, and an object never equals a string"#,
             suggestion: #"player.playerID == "ruthba01""#, written: #"player == "ruthba01""#, count: 0),
        // Over a collection: what the elements' emptiness decides.
        Case(statement: #"COUNT Artist WHERE ALL albums.AlbumId != "1""#, code: .kindMismatch,
             message: #"ALL albums.AlbumId != "1" is always true: albums.AlbumId is an Integer 64 attribute of Album, and a number never equals a string"#,
             suggestion: "ALL albums.AlbumId != 1", written: #"ALL albums.AlbumId != "1""#, count: 2),
        Case(statement: #"COUNT Artist WHERE ALL albums.AlbumId == "1""#, code: .kindMismatch,
             message: #"ALL albums.AlbumId == "1" is true only when albums.AlbumId is empty: albums.AlbumId is an Integer 64 attribute of Album, and a number never equals a string"#,
             suggestion: "ALL albums.AlbumId == 1", written: #"ALL albums.AlbumId == "1""#, count: 0),
        // Nested: in a SUBQUERY, through its variable.
        Case(statement: #"COUNT Artist WHERE SUBQUERY(albums, $a, $a.AlbumId == "2").@count > 0"#, code: .kindMismatch,
             message: #"$a.AlbumId == "2" is always false: $a.AlbumId is an Integer 64 attribute of Album, and a number never equals a string"#,
             suggestion: "$a.AlbumId == 2", written: #"$a.AlbumId == "2""#, count: 0),
        // Aggregates the types make constant.
        Case(statement: #"COUNT Album WHERE tracks.@avg.Added > "2020-01-01""#, code: .degenerateAggregate,
             message: "tracks.@avg.Added is always nil: a mean is of numbers, and Added is a Date attribute of Track",
             suggestion: nil, written: #"tracks.@avg.Added > "2020-01-01""#, count: 0),
        Case(statement: #"COUNT Album WHERE tracks.@count BEGINSWITH "1""#, code: .kindMismatch,
             message: #"tracks.@count BEGINSWITH "1" is always false: tracks.@count is a number, and BEGINSWITH tests strings"#,
             suggestion: nil, written: #"tracks.@count BEGINSWITH "1""#, count: 0),
        // An identifier quoted as SQL quotes it: two constants.
        Case(statement: #"COUNT Track WHERE "Name" == 'Love Song'"#, code: .quotedKey,
             message: #""Name" == "Love Song" compares two constants, the same for every object: quotes make a string, and Name is a key of the object"#,
             suggestion: #"Name == "Love Song""#, written: #""Name" == 'Love Song'"#, count: 0),
        Case(statement: #"COUNT Album WHERE 'Artist.Name' BEGINSWITH 'A'"#, code: .quotedKey,
             message: #""Artist.Name" BEGINSWITH "A" compares two constants, the same for every object: quotes make a string, and Artist.Name is a key of the object"#,
             suggestion: #"Artist.Name BEGINSWITH "A""#, written: #"'Artist.Name' BEGINSWITH 'A'"#, count: 2),
        // HAVING on an alias.
        Case(statement: #"SELECT Name AS name, count:(Milliseconds) AS n FROM Track GROUP BY Name HAVING n == "1""#, code: .kindMismatch,
             message: #"n == "1" is always false: n is a number, and a number never equals a string"#,
             suggestion: "n == 1", written: #"n == "1""#, count: 0),
    ]

    @Test(arguments: StoreKind.allCases, cases)
    func aComparisonTheTypesDecideIsAWarning(_ kind: StoreKind, _ example: Case) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(kind, in: directory)
        let request = try FetchRequest(statement: example.statement)
        let warnings = try store.warnings(for: request)
        #expect(warnings.count == 1, "\(warnings)")
        let warning = try #require(warnings.first)
        #expect(warning.code == example.code)
        #expect(warning.message == example.message)
        #expect(warning.suggestion == example.suggestion)
        #expect(warning.description == example.message + (example.suggestion.map { "; did you mean \($0)?" } ?? ""))
        let range = try #require(warning.range)
        let utf8 = Array(example.statement.utf8)
        #expect(String(decoding: utf8[range.start..<range.end], as: UTF8.self) == example.written)
        #expect(warning.clause == (example.statement.contains("HAVING") ? .having : .predicate))
        // The answer is the language's, warned about or not.
        let count: Int
        switch try store.execute(request) {
        case .count(let n): count = n
        case .dictionaries(let rows): count = rows.count
        default: count = -1
        }
        #expect(count == example.count)
    }

    /// No warning where the evaluator's answer can be true, or the comparison means what it says.
    @Test(arguments: [
        "COUNT Track WHERE Extra == 5", #"COUNT Track WHERE Extra == "343719""#, "COUNT Track WHERE Milliseconds == nil",
        "COUNT Album WHERE Artist == nil", "COUNT Album WHERE Artist != nil", "COUNT Track WHERE Name == Milliseconds",
        "COUNT Track WHERE Milliseconds == 343719", #"COUNT Track WHERE Name LIKE "*Love*""#, #"COUNT Track WHERE Name LIKE "100%*""#,
        #"COUNT Track WHERE Added >= "2021-01-01""#, "COUNT Track WHERE Explicit == 1", "COUNT Album WHERE Artist.ArtistId == 3",
        #"COUNT Album WHERE Artist == CAST("A1", "NSManagedObjectID")"#, "COUNT Artist WHERE albums.@count == 1",
        #"COUNT Track WHERE "Love" IN Name"#, "COUNT Track WHERE Milliseconds IN {5, nil}", #"COUNT Track WHERE Milliseconds IN {5, "6"}"#,
        #"COUNT Artist WHERE SUBQUERY(albums, $a, $a.Title CONTAINS "Black").@count > 0"#,
    ])
    func noWarningWhereTheAnswerCanBeTrue(_ statement: String) throws {
        let store = try Self.store(.inMemory, in: FileManager.default.temporaryDirectory)
        #expect(try store.warnings(for: FetchRequest(statement: statement)).isEmpty, "\(statement)")
    }

    /// The request's errors are the warnings' errors too (the fetch would throw them).
    @Test func aRequestInErrorThrows() throws {
        let store = try Self.store(.inMemory, in: FileManager.default.temporaryDirectory)
        #expect(throws: StoreError.self) { try store.warnings(for: FetchRequest(statement: "Track WHERE Nme == 5")) }
        #expect(throws: StoreError.self) { try store.warnings(for: FetchRequest(statement: "Nothing WHERE x == 5")) }
    }

    /// Several warnings come in the order written; a batch change's predicate has them too.
    @Test func warningsComeInTheOrderWritten() throws {
        let store = try Self.store(.inMemory, in: FileManager.default.temporaryDirectory)
        let statement = #"Track WHERE Name == 5 OR (Milliseconds == "1" AND Album.Artist == 3)"#
        let warnings = try store.warnings(for: FetchRequest(statement: statement))
        #expect(warnings.map(\.suggestion) == [#"Name == "5""#, "Milliseconds == 1", "Album.Artist.ArtistId == 3"])
        #expect(warnings.map { $0.column(in: statement) } == [13, 27, 51])
        let predicate = try PredicateNode(format: #"Name LIKE "%x""#)
        #expect(try store.model.warnings(for: predicate, entity: "Track").map(\.code) == [.sqlWildcard])
    }
}
