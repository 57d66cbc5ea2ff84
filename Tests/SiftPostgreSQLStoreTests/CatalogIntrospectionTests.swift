import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Testing

/// A PostgreSQL database Sift did not create opens read-only, its model read from its catalog
/// (a small Chinook-like database made with SQL): entities, attribute types, relationships and
/// their inverses named as SQLite files' are; fetches across to-one and to-many relationships,
/// sorts and counts run in the server and answer as the evaluator does on every row; changes are
/// refused.
@Suite struct CatalogIntrospectionTests {
    static let schemaSQL = """
        CREATE TABLE "Artist" ("ArtistId" integer PRIMARY KEY, "Name" text NOT NULL);
        CREATE TABLE "Album" ("AlbumId" integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "Title" varchar(160) NOT NULL,
            "ArtistId" integer NOT NULL REFERENCES "Artist", "ProducerId" integer REFERENCES "Artist", "Released" date);
        CREATE TABLE "Track" ("TrackId" bigint PRIMARY KEY, "Name" text NOT NULL, "AlbumId" integer REFERENCES "Album",
            "Milliseconds" integer, "UnitPrice" numeric(10,2), "Explicit" boolean, "Added" timestamptz, "Played" timestamp,
            "Code" char(6), "Tags" jsonb, "Uid" uuid, "Ratio" real, "Score" double precision, "Cover" bytea, "Rank" smallint);
        CREATE TABLE genre (code integer NOT NULL UNIQUE, label text, parent_id integer REFERENCES genre (code), old_id integer);
        CREATE TABLE tag (name text PRIMARY KEY);
        CREATE TABLE loose (n integer UNIQUE, m integer NOT NULL);
        CREATE UNIQUE INDEX ON loose (m) WHERE m > 0;
        CREATE TABLE playlist_track (playlist_id integer, track_id bigint REFERENCES "Track", PRIMARY KEY (playlist_id, track_id));
        CREATE VIEW "AlbumTitles" AS SELECT "Title" FROM "Album";
        INSERT INTO "Artist" VALUES (1, 'AC/DC'), (2, 'Accept'), (3, 'Black Sabbath'), (4, 'apple band'), (5, 'Zed');
        INSERT INTO "Album" ("Title", "ArtistId", "ProducerId", "Released") VALUES
            ('For Those About To Rock', 1, 2, '1981-11-23'), ('Let There Be Rock', 1, NULL, '1977-03-21'),
            ('Balls to the Wall', 2, NULL, '1983-12-05'), ('Paranoid', 3, 1, '1970-09-18'), ('Another', 5, NULL, NULL);
        INSERT INTO "Track" VALUES
            (10, 'For Those About To Rock', 1, 343719, 0.99, false, '2020-01-02 03:04:05.25+00', '2021-06-01 12:00:00', 'ab', '{"a": 1}',
             'e621e1f8-c36c-495a-93fc-0c247a3e6e5f', 0.5, 1.25, '\\x0102', 3),
            (11, 'Put The Finger On You', 1, 205662, 0.99, true, '2020-01-03 00:00:00+00', NULL, 'cd', NULL, NULL, 1.5, -2, NULL, 1),
            (12, 'Balls to the Wall', 3, 342562, 1.99, NULL, NULL, NULL, NULL, '[1, 2]', NULL, NULL, NULL, NULL, 2),
            (13, 'War Pigs', 4, 471000, 0.99, true, '2019-12-31 23:59:59+00', NULL, 'ab', NULL, NULL, NULL, 7.5, NULL, NULL),
            (14, 'Lonely', NULL, 1000, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
        INSERT INTO genre VALUES (7, 'Rock', NULL), (3, 'Metal', 7);
        INSERT INTO playlist_track VALUES (1, 10);
        """

    /// A database made with `schemaSQL`, opened by Sift.
    static func opened(_ label: String) async throws -> (database: PostgreSQLTestDatabase, store: PostgreSQLStore) {
        let database = try await PostgreSQLTestServer.makeDatabase(label)
        try database.connect().execute(schemaSQL)
        return (database, try PostgreSQLStore.open(connection: try database.connect()))
    }

    @Test func theCatalogBecomesAModel() async throws {
        let (database, store) = try await Self.opened("introspect-model")
        defer { database.drop() }
        #expect(store.isReadOnly)
        let model = store.model
        // Tables with an integer key; not those with a composite or text key or only a nullable
        // or partial unique integer column, nor the view.
        #expect(Set(model.entities.map(\.name)) == ["Artist", "Album", "Track", "genre"])

        let track = try #require(model.entity(named: "Track"))
        let types = Dictionary(uniqueKeysWithValues: track.attributes.map { ($0.name, $0.type) })
        #expect(types == [
            "TrackId": .integer64, "Name": .string, "AlbumId": .integer32, "Milliseconds": .integer32, "UnitPrice": .decimal,
            "Explicit": .boolean, "Added": .date, "Played": .date, "Code": .string, "Tags": .string, "Uid": .uuid,
            "Ratio": .float, "Score": .double, "Cover": .binary, "Rank": .integer16,
        ])
        #expect(try #require(model.entity(named: "Album")).attribute(named: "Released")?.type == .date)

        // `ArtistId` → `Artist` (the column stays an attribute); the second foreign key to
        // Artist gets the inverse `albums_Producer`.
        let album = try #require(model.entity(named: "Album"))
        #expect(album.relationship(named: "Artist")?.destination == "Artist")
        #expect(album.relationship(named: "Artist")?.inverse == "albums")
        #expect(album.relationship(named: "Producer")?.inverse == "albums_Producer")
        #expect(album.relationship(named: "tracks")?.isToMany == true)
        #expect(album.attribute(named: "ArtistId") != nil)
        let artist = try #require(model.entity(named: "Artist"))
        #expect(Set(artist.relationships.map(\.name)) == ["albums", "albums_Producer"])
        #expect(artist.relationship(named: "albums")?.isToMany == true)
        #expect(artist.relationship(named: "albums")?.inverse == "Artist")
        // A table without a primary key is keyed by its unique NOT NULL integer column; a
        // foreign key to it (here to its own table) is a to-one with its inverse; a column named
        // like a key without a foreign key stays an attribute.
        let genre = try #require(model.entity(named: "genre"))
        #expect(genre.attributes.map(\.name) == ["code", "label", "parent_id", "old_id"])
        #expect(genre.relationship(named: "parent")?.destination == "genre")
        #expect(genre.relationship(named: "parent")?.inverse == "genres")
        #expect(genre.relationship(named: "genres")?.isToMany == true)
        #expect(genre.relationship(named: "old") == nil)
        #expect(store.columnTypeReasons["genre"]?["code"] == "declared integer; the row's key")
        #expect(store.columnTypeReasons["Track"]?["Code"] == "declared character(6); read as text")
    }

    @Test func fetchesRunInTheServerAndAnswerAsTheEvaluator() async throws {
        let (database, store) = try await Self.opened("introspect-fetch")
        defer { database.drop() }

        func ids(_ statement: String) throws -> [String] {
            try store.fetch(FetchRequest(statement: statement)).map(\.objectID.rawValue)
        }
        #expect(try ids(#"Artist WHERE ANY albums.Title BEGINSWITH "L" SORT BY Name"#) == ["Artist/1"])
        #expect(try ids(#"Artist WHERE ANY albums.Title BEGINSWITH "A""#) == ["Artist/5"])
        #expect(try ids(#"Album WHERE Artist.Name == "AC/DC" SORT BY Title"#) == ["Album/1", "Album/2"])
        #expect(try ids(#"Album WHERE Producer.Name == "Accept""#) == ["Album/1"])
        #expect(try ids(#"Track WHERE Album.Artist.Name == "AC/DC" SORT BY Milliseconds DESC"#) == ["Track/10", "Track/11"])
        #expect(try ids(#"Artist WHERE albums.@count == 0 SORT BY Name"#) == ["Artist/4"])
        // Text sorts in code-point order, as the evaluator's, whatever the database's collation.
        #expect(try ids("Artist SORT BY Name") == ["Artist/1", "Artist/2", "Artist/3", "Artist/5", "Artist/4"])
        #expect(try store.count(FetchRequest(statement: "Track WHERE Explicit == YES")) == 2)
        #expect(try store.count(FetchRequest(statement: "Track WHERE UnitPrice > 1")) == 1)
        #expect(try store.count(FetchRequest(statement: #"Track WHERE Code == "ab""#)) == 2)
        #expect(try ids(#"Album WHERE Released < CAST("1980-01-01T00:00:00Z", "NSDate") SORT BY Released"#) == ["Album/4", "Album/2"])
        #expect(try ids("genre WHERE code > 5") == ["genre/7"])
        #expect(try ids(#"genre WHERE parent.label == "Rock""#) == ["genre/3"])
        #expect(store.object(with: ObjectID("genre/7"))?.destinationIDs(of: "genres") == [ObjectID("genre/3")])

        // The values as read.
        let first = try #require(store.object(with: ObjectID("Track/10")))
        #expect(same(first[attribute: "Name"], .string("For Those About To Rock")))
        #expect(same(first[attribute: "TrackId"], .int(10)))
        #expect(same(first[attribute: "UnitPrice"], .decimal(try #require(Decimal(string: "0.99")))))
        #expect(same(first[attribute: "Explicit"], .bool(false)))
        // char(n) is read as its text, without the padding (as PostgreSQL compares it).
        #expect(same(first[attribute: "Code"], .string("ab")))
        #expect(same(first[attribute: "Tags"], .string(#"{"a": 1}"#)))
        #expect(same(first[attribute: "Uid"], .uuid(try #require(UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")))))
        #expect(same(first[attribute: "Ratio"], .double(0.5)))
        #expect(same(first[attribute: "Cover"], .data(Data([1, 2]))))
        #expect(same(first[attribute: "Added"], .date(Date(timeIntervalSince1970: 1_577_934_245.25))))
        #expect(same(first[attribute: "Played"], .date(Date(timeIntervalSince1970: 1_622_548_800))))
        #expect(first.destinationIDs(of: "Album") == [ObjectID("Album/1")])
        #expect(store.object(with: ObjectID("Artist/1"))?.destinationIDs(of: "albums") == [ObjectID("Album/1"), ObjectID("Album/2")])
        #expect(store.object(with: ObjectID("Artist/+1")) == nil)
        #expect(store.object(with: ObjectID("Artist/99")) == nil)

        // Every predicate answers as the evaluator does on all the rows, in the same order.
        let statements = [
            #"Track WHERE Name BEGINSWITH "B" OR Milliseconds > 400000 SORT BY Name"#,
            #"Track WHERE Name CONTAINS[cd] "rock" SORT BY TrackId DESC"#,
            #"Track WHERE Album.Title < "M" SORT BY Album.Title, Name"#,
            "Track WHERE Ratio > 0.75 OR Score < 0 SORT BY Score",
            #"Track WHERE Code == "ab" OR Tags CONTAINS "2" SORT BY Code, TrackId"#,
            #"Track WHERE Added > CAST("2020-01-01T00:00:00Z", "NSDate") SORT BY Added DESC"#,
            "Track WHERE Explicit == NO OR Explicit == nil SORT BY Rank",
            "Track WHERE UnitPrice >= 0.99 AND Rank != nil SORT BY UnitPrice DESC, Name",
            #"Album WHERE ANY tracks.Name MATCHES ".*Rock.*" SORT BY Title"#,
            #"Album WHERE Artist.Name IN {"Accept", "Zed"} SORT BY Title DESC"#,
            "Album WHERE tracks.@count >= 2",
            #"Album WHERE SUBQUERY(tracks, $t, $t.Explicit == YES).@count > 0 SORT BY AlbumId"#,
            "Artist WHERE albums_Producer.@count > 0 SORT BY Name",
            #"genre WHERE label LIKE "*e*" SORT BY label"#,
        ]
        for statement in statements {
            let request = try FetchRequest(statement: statement)
            let fetched = try store.fetch(request).map(\.objectID)
            let all = try store.fetch(FetchRequest(entityName: request.entityName))
            let predicate = try CompiledPredicate(try #require(request.predicate))
            let matching = try all.filter { try predicate.evaluate(.object($0)) }
            let order = try Sorting.sortedIndices(matching.map { .object($0) }, by: request.sortDescriptors)
            #expect(fetched == order.map { matching[$0].objectID }, "\(statement)")
            #expect(try store.count(request) == matching.count, "\(statement)")
        }
        // The plain comparisons ran in the server.
        let sql = try store.generatedSQL(for: FetchRequest(statement: #"Album WHERE Artist.Name == "AC/DC" SORT BY Title"#))
        #expect(sql.inMemoryPredicate == nil && !sql.sortsInMemory, "\(sql)")
        #expect(sql.sql.contains(#"ORDER BY "t0"."Title" COLLATE "C""#), "\(sql.sql)")
    }

    @Test func changesAreRefused() async throws {
        let (database, store) = try await Self.opened("introspect-readonly")
        defer { database.drop() }
        let inserting = #expect(throws: StoreError.self) { try store.insert("Artist", ["Name": .string("New")]) }
        #expect(inserting?.code == .readOnly)
        #expect(inserting?.message.contains("can be queried but not changed") == true, "\(String(describing: inserting))")
        let deleting = #expect(throws: StoreError.self) { try store.delete(ObjectID("Artist/1")) }
        #expect(deleting?.code == .readOnly)
        let unit = #expect(throws: StoreError.self) {
            try store.performChanges { try store.update(ObjectID("Artist/1"), attributes: ["Name": .string("X")], relationships: [:]) }
        }
        #expect(unit?.code == .readOnly)
        #expect(!store.hasChanges)
        #expect(try store.count(FetchRequest(entityName: "Artist")) == 5)
    }

    @Test func anEmptyDatabaseOpensWithNoEntitiesAndASiftStoreStillOpensAsOne() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("introspect-empty")
        defer { database.drop() }
        let empty = try PostgreSQLStore.open(connection: try database.connect())
        #expect(empty.isReadOnly)
        #expect(empty.model.entities.isEmpty)
        _ = try PostgreSQLStore.create(connection: try database.connect(), model: StoreTestModels.notes)
        let store = try PostgreSQLStore.open(connection: try database.connect())
        #expect(!store.isReadOnly)
        #expect(store.model.entity(named: "Note") != nil)
    }

    @Test func textNotInNFCIsComparedInNFC() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("introspect-nfc")
        defer { database.drop() }
        try database.connect().execute("""
            CREATE TABLE words (id integer PRIMARY KEY, w text, j jsonb, plain text);
            INSERT INTO words VALUES (1, U&'Cafe\\0301', U&'{"k": "e\\0301"}', 'a'), (2, 'Café', '{"k": "é"}', 'b'), (3, 'cafe', NULL, NULL);
            """)
        let store = try PostgreSQLStore.open(connection: try database.connect())
        #expect(store.columnTypeReasons["words"]?["w"] == "declared text; holds text not in NFC, read in NFC")
        #expect(store.columnTypeReasons["words"]?["j"] == "declared jsonb; read as text; holds text not in NFC, read in NFC")
        #expect(store.columnTypeReasons["words"]?["plain"] == "declared text")
        for (statement, expected) in [
            (#"words WHERE w == "Café""#, ["words/1", "words/2"]), (#"words WHERE w BEGINSWITH "Café" SORT BY id"#, ["words/1", "words/2"]),
            (#"words WHERE w < "Cafë" SORT BY w, id"#, ["words/1", "words/2"]), (#"words WHERE j CONTAINS "é" SORT BY id"#, ["words/1", "words/2"]),
            (#"words WHERE plain == "a""#, ["words/1"]),
        ] {
            let request = try FetchRequest(statement: statement)
            #expect(try store.fetch(request).map(\.objectID.rawValue) == expected, "\(statement)")
            #expect(try store.generatedSQL(for: request).inMemoryPredicate == nil, "\(statement)")
        }
        #expect(try store.generatedSQL(for: FetchRequest(statement: #"words WHERE w == "Café""#)).sql.contains(#"normalize("t0"."w", NFC)"#))
        // A column holding only NFC text is read as it is (so an index on it serves).
        let plain = try store.generatedSQL(for: FetchRequest(statement: #"words WHERE plain == "a""#)).sql
        #expect(plain.contains(#""t0"."plain""#) && !plain.contains("normalize"), "\(plain)")
    }
}
