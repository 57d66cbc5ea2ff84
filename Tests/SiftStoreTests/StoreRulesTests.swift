import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// The rules a store enforces, on the seed apps as SEED-APPS.md describes them: delete rules
/// (Cascade, Nullify, Deny) and inverses, defaults on insert, required values and uniqueness
/// constraints checked on save, and errors for abstract entities, unknown keys and wrong types.
@Suite struct StoreRulesTests {
    /// A seed app's store of `kind` with its data.json imported (file stores in `directory`,
    /// saved and opened again).
    static func seedStore(_ app: String, kind: StoreKind, in directory: URL) throws -> any PersistentStore {
        try kind.seeded(app, in: directory)
    }

    /// The IDs a relationship of an object points at (nil when there is no such object).
    static func destinations(_ store: any PersistentStore, _ id: ObjectID, _ relationship: String) -> [ObjectID]? {
        guard let object = store.object(with: id) else { return nil }
        guard let entry = object.relationshipIDs.first(where: { $0.name == relationship }) else {
            Issue.record("\(object.entityName) has no relationship \(relationship)")
            return nil
        }
        return entry.ids
    }

    /// An attribute of an object as JSON text (nil when there is no such object).
    static func value(_ store: any PersistentStore, _ id: ObjectID, _ key: String) -> String? {
        store.object(with: id)?[attribute: key].map(text)
    }

    static func text(_ value: Value) -> String { SeedFetchTests.text(value) }

    static func exists(_ store: any PersistentStore, _ id: ObjectID) -> Bool { store.object(with: id) != nil }

    static func count(_ store: any PersistentStore, _ entity: String) throws -> Int {
        try store.count(FetchRequest(entityName: entity))
    }

    // MARK: Inverses

    @Test(arguments: StoreKind.allCases)
    func importFillsInInverses(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Movies", kind: kind, in: directory)
        // data.json writes Movie.cast and Character.actor/movie; the inverses are filled in.
        #expect(Self.destinations(store, "Actor-Mark-Hamill", "movies") == ["M1"])
        #expect(Self.destinations(store, "Actor-Chris-Pine", "movies") == ["M2", "M3"])
        #expect(Self.destinations(store, "Actor-Chris-Pine", "roles") == ["Character-James-T-Kirk", "Character-Jim-Kirk"])
        #expect(Self.destinations(store, "M1", "characters") == ["Character-Luke-Skywalker", "Character-Leia-Organa", "Character-Han-Solo"])
        let mustC = try Self.seedStore("MustC", kind: kind, in: directory)
        #expect(Self.destinations(mustC, "FamilyMember-Anna", "movies") == ["Movie-Up", "Movie-Alien", "Movie-Heat"])
        #expect(Self.destinations(mustC, "FamilyMember-Zoe", "movies") == [])
    }

    @Test(arguments: StoreKind.allCases)
    func aToOneMovedToAnotherObjectLeavesItsOldInverse(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("MustC", kind: kind, in: directory)
        try store.update("Movie-Jaws", attributes: [:], relationships: ["familyMember": ["FamilyMember-Zoe"]])
        #expect(Self.destinations(store, "FamilyMember-Mark", "movies") == [])
        #expect(Self.destinations(store, "FamilyMember-Zoe", "movies") == ["Movie-Jaws"])
        // Adding to a to-many sets the destination's to-one, taking it from its old owner.
        try store.update("FamilyMember-Gustav", attributes: [:], relationships: ["movies": ["Movie-Up"]])
        #expect(Self.destinations(store, "Movie-Up", "familyMember") == ["FamilyMember-Gustav"])
        #expect(Self.destinations(store, "FamilyMember-Anna", "movies") == ["Movie-Alien", "Movie-Heat"])
        try store.save()
    }

    // MARK: Movies: every delete rule

    @Test(arguments: StoreKind.allCases)
    func deletingAMovieCascadesToItsCharactersAndNullifiesItsActors(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Movies", kind: kind, in: directory)
        // Character.movie is Deny, but its destination is the movie being deleted: no block.
        try store.delete("M1")
        for id: ObjectID in ["M1", "Character-Luke-Skywalker", "Character-Leia-Organa", "Character-Han-Solo"] {
            #expect(!Self.exists(store, id), "\(id) should be deleted")
        }
        // The actors survive, without the movie and without their roles in it.
        for actor: ObjectID in ["Actor-Mark-Hamill", "Actor-Carrie-Fisher", "Actor-Harrison-Ford"] {
            #expect(Self.destinations(store, actor, "movies") == [])
            #expect(Self.destinations(store, actor, "roles") == [])
        }
        #expect(try Self.count(store, "Movie") == 8)
        #expect(try Self.count(store, "Character") == 9)
        #expect(try Self.count(store, "Actor") == 10)
        // A required to-many may be empty (FETCH.md §2), so this saves.
        try store.save()

        // Deleting a movie whose actor has other movies keeps that actor's other movie and role.
        try store.delete("M2")
        #expect(Self.destinations(store, "Actor-Chris-Pine", "movies") == ["M3"])
        #expect(Self.destinations(store, "Actor-Chris-Pine", "roles") == ["Character-Jim-Kirk"])
        try store.save()

        if let reopened = try kind.reopen(store) {
            #expect(!Self.exists(reopened, "M1"))
            #expect(!Self.exists(reopened, "Character-James-T-Kirk"))
            #expect(Self.destinations(reopened, "Actor-Mark-Hamill", "movies") == [])
            #expect(Self.destinations(reopened, "Actor-Chris-Pine", "roles") == ["Character-Jim-Kirk"])
            #expect(try Self.count(reopened, "Character") == 8)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deletingAnActorWithMoviesIsDeniedNamingTheBlockingObject(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Movies", kind: kind, in: directory)
        let error = #expect(throws: StoreError.self) { try store.delete("Actor-Mark-Hamill") }
        #expect(error?.code == .deleteDenied)
        #expect(error?.entity == "Actor")
        #expect(error?.objectID == "Actor-Mark-Hamill")
        #expect(error?.key == "movies")
        #expect(error?.message.contains("Actor-Mark-Hamill") == true)
        #expect(error?.message.contains("'M1'") == true, "the message names the blocking movie: \(error?.message ?? "")")
        // Nothing changed: not the actor, not the role its Cascade would have deleted.
        #expect(Self.exists(store, "Actor-Mark-Hamill"))
        #expect(Self.exists(store, "Character-Luke-Skywalker"))
        #expect(Self.destinations(store, "M1", "cast")?.contains("Actor-Mark-Hamill") == true)
        #expect(!store.hasChanges)
    }

    @Test(arguments: StoreKind.allCases)
    func anActorWithoutMoviesCanBeDeletedAndTakesItsRolesAlong(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Movies", kind: kind, in: directory)
        try store.delete("M4")  // Casper Van Dien's only movie, with his only role.
        #expect(!Self.exists(store, "Character-Johnny-Rico"))
        try store.delete("Actor-Casper-Van-Dien")
        #expect(!Self.exists(store, "Actor-Casper-Van-Dien"))
        try store.save()
    }

    @Test(arguments: StoreKind.allCases)
    func deletingACharacterWhoseMovieIsSetIsDenied(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Movies", kind: kind, in: directory)
        let error = #expect(throws: StoreError.self) { try store.delete("Character-Spock") }
        #expect(error?.code == .deleteDenied)
        #expect(error?.objectID == "Character-Spock")
        #expect(error?.key == "movie")
        #expect(error?.message.contains("'M3'") == true, "\(error?.message ?? "")")
        #expect(Self.exists(store, "Character-Spock"))
        #expect(Self.destinations(store, "Actor-Zachary-Quinto", "roles") == ["Character-Spock"])
    }

    @Test(arguments: StoreKind.allCases)
    func aDenyReachedThroughACascadeNamesTheObjectAndTheCascade(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Movies", kind: kind, in: directory)
        // An actor with no movies but a role: deleting the actor cascades to the role, whose
        // movie (which survives) denies it.
        try store.insert("Actor", id: "Actor-Extra", ["name": .string("Extra")])
        try store.insert("Character", id: "Character-Extra", ["name": .string("Stormtrooper")],
                         relationships: ["actor": ["Actor-Extra"], "movie": ["M1"]])
        let error = #expect(throws: StoreError.self) { try store.delete("Actor-Extra") }
        #expect(error?.code == .deleteDenied)
        #expect(error?.objectID == "Character-Extra")
        #expect(error?.message.contains("Actor-Extra") == true)
        #expect(error?.message.contains("'M1'") == true, "\(error?.message ?? "")")
        #expect(Self.exists(store, "Actor-Extra"))
        #expect(Self.exists(store, "Character-Extra"))
        // Once the movie is gone (cascading to the character), the actor can go.
        try store.delete("M1")
        #expect(!Self.exists(store, "Character-Extra"))
        try store.delete("Actor-Extra")
        try store.save()
    }

    // MARK: MustC, Albums, NestedItems

    @Test(arguments: StoreKind.allCases)
    func mustCDeletingAnnaDeletesHerMovies(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("MustC", kind: kind, in: directory)
        try store.delete("FamilyMember-Anna")
        for id: ObjectID in ["FamilyMember-Anna", "Movie-Up", "Movie-Alien", "Movie-Heat"] {
            #expect(!Self.exists(store, id), "\(id) should be deleted")
        }
        #expect(Self.exists(store, "Movie-Jaws"))
        #expect(try Self.count(store, "Movie") == 1)
        #expect(try Self.count(store, "FamilyMember") == 4)
        try store.save()
    }

    @Test(arguments: StoreKind.allCases)
    func mustCDeletingJawsLeavesMarkWithNoMovies(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("MustC", kind: kind, in: directory)
        try store.delete("Movie-Jaws")
        #expect(Self.exists(store, "FamilyMember-Mark"))
        #expect(Self.destinations(store, "FamilyMember-Mark", "movies") == [])
        #expect(try store.count(FetchRequest(statement: "COUNT FamilyMember WHERE movies.@count == 0")) == 4)
        try store.save()
    }

    @Test(arguments: StoreKind.allCases)
    func albumsDeletingHolyHellDeletesItsTwoSessions(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Albums", kind: kind, in: directory)
        #expect(Self.destinations(store, "AL1", "listeningSessions")?.count == 2)
        let sessions = try #require(Self.destinations(store, "AL1", "listeningSessions"))
        try store.delete("AL1")
        for id in sessions { #expect(!Self.exists(store, id), "\(id) should be deleted") }
        #expect(try Self.count(store, "ListeningSession") == 5)
        // The artist stays, without the album (Nullify).
        #expect(Self.destinations(store, "Artist-Architects", "albums") == ["AL2", "AL3"])
        try store.save()
    }

    @Test(arguments: StoreKind.allCases)
    func albumsDeletingOneSessionOnlyRemovesItFromItsAlbum(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Albums", kind: kind, in: directory)
        let sessions = try #require(Self.destinations(store, "AL6", "listeningSessions"))
        #expect(sessions.count == 3)
        let first = try #require(sessions.first)
        try store.delete(first)
        #expect(Self.exists(store, "AL6"))
        #expect(Self.destinations(store, "AL6", "listeningSessions") == Array(sessions.dropFirst()))
        try store.save()
    }

    @Test(arguments: StoreKind.allCases)
    func nestedItemsDeletingAnItemCascadesItsSubtree(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("NestedItems", kind: kind, in: directory)
        try store.delete("A")
        for id: ObjectID in ["A", "A1", "A2"] { #expect(!Self.exists(store, id), "\(id) should be deleted") }
        #expect(Self.destinations(store, "R", "children") == ["B", "C"])
        #expect(try Self.count(store, "Item") == 6)
        // Deleting the root deletes the whole tree, however deep.
        try store.insert("Item", id: "B1a", ["title": .string("Draft")], relationships: ["parent": ["B1"]])
        try store.delete("R")
        #expect(try Self.count(store, "Item") == 0)
        try store.save()
    }

    // MARK: Defaults on insert

    @Test(arguments: StoreKind.allCases)
    func defaultsAreGivenOnInsert(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = try Self.seedStore("Notes", kind: kind, in: directory)
        let id = try notes.insert("Category", ["name": .string("Home")])
        #expect(Self.value(notes, id, "colorAsHex") == Self.text(.string("FFFFFF")))
        // The import gave the same default to the categories without a colour.
        #expect(Self.value(notes, "C2", "colorAsHex") == Self.text(.string("FFFFFF")))
        #expect(Self.value(notes, "C1", "colorAsHex") == Self.text(.string("FC7870FF")))
        try notes.save()

        let albums = try Self.seedStore("Albums", kind: kind, in: directory)
        let session = try albums.insert("ListeningSession", ["date": .string("2022-01-01T00:00:00Z")], relationships: ["album": ["AL2"]])
        #expect(Self.value(albums, session, "notes") == Self.text(.string("")))
        #expect(albums.object(with: session)?[attribute: "date"].map { if case .date = $0 { true } else { false } } == true)
        try albums.save()
        #expect(try albums.count(FetchRequest(statement: #"COUNT ListeningSession WHERE notes == """#)) == 2)

        let video = try Self.seedStore("VideoItems", kind: kind, in: directory)
        let episode = try video.insert("Episode", ["title": .string("Pilot"), "releaseDate": .string("2001-01-01T00:00:00Z")])
        #expect(Self.value(video, episode, "season") == Self.text(.int(1)))
        #expect(Self.value(video, episode, "rating") == Self.text(.null))
        try video.save()
    }

    @Test(arguments: StoreKind.allCases)
    func anExplicitNilIsNotReplacedByTheDefault(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Albums", kind: kind, in: directory)
        let session = try store.insert("ListeningSession", ["notes": .null])
        #expect(Self.value(store, session, "notes") == Self.text(.null))
        let error = #expect(throws: StoreError.self) { try store.save() }
        #expect(error?.code == .missingValue)
        #expect(error?.key == "notes")
    }

    // MARK: Required values, checked on save

    @Test(arguments: StoreKind.allCases)
    func requiredAttributesAreCheckedOnSave(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Notes", kind: kind, in: directory)
        // Inserting without a required value is allowed; saving is not.
        let id = try store.insert("Note", id: "N9", ["contents": .string("no title yet"), "createdAt": .string("2020-01-01T00:00:00Z"),
                                                     "updatedAt": .string("2020-01-01T00:00:00Z")])
        #expect(store.hasChanges)
        let error = #expect(throws: StoreError.self) { try store.save() }
        #expect(error?.code == .missingValue)
        #expect(error?.entity == "Note")
        #expect(error?.objectID == "N9")
        #expect(error?.key == "title")
        #expect(error?.message.contains("title") == true)
        // The change stays pending; giving the value makes the save succeed.
        #expect(store.hasChanges)
        try store.update(id, ["title": .string("Later")])
        try store.save()
        #expect(!store.hasChanges)
        #expect(Self.value(store, "N9", "title") == Self.text(.string("Later")))

        // Setting a required attribute to nil is caught the same way; rollback restores it.
        try store.update("N1", ["createdAt": .null])
        #expect(throws: StoreError.self) { try store.save() }
        store.rollback()
        #expect(Self.value(store, "N1", "createdAt") != Self.text(.null))
        #expect(!store.hasChanges)
    }

    @Test(arguments: StoreKind.allCases)
    func aRequiredToOneIsCheckedOnSave(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("PointsOfInterest", kind: kind, in: directory)
        // PointOfInterest.category is required; deleting the category nullifies it.
        try store.delete("PC2")
        #expect(Self.destinations(store, "PO2", "category") == [])
        let error = #expect(throws: StoreError.self) { try store.save() }
        #expect(error?.code == .missingValue)
        #expect(error?.entity == "PointOfInterest")
        #expect(error?.key == "category")
        #expect(error?.objectID == "PO2")
        store.rollback()
        #expect(Self.destinations(store, "PO2", "category") == ["PC2"])
    }

    // MARK: Uniqueness constraints

    @Test(arguments: StoreKind.allCases)
    func aDuplicateIdentifierFailsOnSaveNamingBothObjects(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("PointsOfInterest", kind: kind, in: directory)
        try store.insert("PointOfInterest", id: "PO9", [
            "name": .string("POI 0 again"), "address": .string("Address 0"), "city": .string("Amsterdam"),
            "country": .string("The Netherlands"), "information": .string("a duplicate"),
            "identifier": .string("1975db51-5a45-4fd6-ac54-46ca6042c710"),  // the same UUID, lower-case
            "updatedAt": .string("2020-12-06T10:00:00Z"),
        ], relationships: ["category": ["PC1"]])
        let error = #expect(throws: StoreError.self) { try store.save() }
        #expect(error?.code == .constraintViolation)
        #expect(error?.entity == "PointOfInterest")
        #expect(error?.key == "identifier")
        #expect(error?.message.contains("PO9") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("PO0") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("identifier") == true)
        // A different identifier saves.
        try store.update("PO9", ["identifier": .uuid(UUID())])
        try store.save()
    }

    @Test(arguments: StoreKind.allCases)
    func aDuplicateCategoryNameFailsOnSaveNamingBothObjects(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("PointsOfInterest", kind: kind, in: directory)
        // "Café" decomposed is the same name as the stored "Café" (strings are NFC).
        try store.insert("PoiCategory", id: "PC9", ["name": .string("Cafe\u{301}")])
        let error = #expect(throws: StoreError.self) { try store.save() }
        #expect(error?.code == .constraintViolation)
        #expect(error?.entity == "PoiCategory")
        #expect(error?.key == "name")
        #expect(error?.message.contains("PC9") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("PC3") == true, "\(error?.message ?? "")")
        store.rollback()
        #expect(!Self.exists(store, "PC9"))
        // Names differing only in case are different values.
        try store.insert("PoiCategory", id: "PC10", ["name": .string("museum")])
        try store.save()
    }

    @Test(arguments: StoreKind.allCases)
    func nilValuesNeverConflict(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // As in SQL (and so in the SQLite store), a uniqueness constraint ignores nil values.
        let store = try Self.seedStore("PointsOfInterest", kind: kind, in: directory)
        try store.insert("PoiCategory", id: "PC8", ["name": .null])
        try store.insert("PoiCategory", id: "PC9")
        try store.save()
        #expect(try store.count(FetchRequest(statement: "COUNT PoiCategory WHERE name == nil")) == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func anImportThatBreaksAConstraintImportsNothing(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("PointsOfInterest", kind: kind, in: directory)
        let data = Data(#"{"PoiCategory": [{"@id": "PC7", "name": "Zoo"}, {"@id": "PC8", "name": "Park"}]}"#.utf8)
        let error = #expect(throws: StoreError.self) { try StoreImporter.importJSON(data, into: store) }
        #expect(error?.code == .constraintViolation)
        #expect(error?.message.contains("PC8") == true)
        #expect(error?.message.contains("PC4") == true)
        #expect(!Self.exists(store, "PC7"))
        #expect(try Self.count(store, "PoiCategory") == 4)
    }

    // MARK: Errors on insert and update

    @Test(arguments: StoreKind.allCases)
    func insertingAnAbstractEntityIsAnError(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("VideoItems", kind: kind, in: directory)
        let error = #expect(throws: StoreError.self) {
            try store.insert("VideoItem", ["title": .string("X"), "releaseDate": .string("2001-01-01T00:00:00Z")])
        }
        #expect(error?.code == .abstractEntity)
        #expect(error?.entity == "VideoItem")
        #expect(error?.message.contains("abstract") == true)
        #expect(!store.hasChanges)
        // Importing a row of it is the same error.
        let data = Data(#"{"VideoItem": [{"@id": "V99", "title": "X", "releaseDate": "2001-01-01T00:00:00Z"}]}"#.utf8)
        let imported = #expect(throws: StoreError.self) { try StoreImporter.importJSON(data, into: store) }
        #expect(imported?.code == .abstractEntity)
        #expect(try Self.count(store, "VideoItem") == 12)
    }

    @Test(arguments: StoreKind.allCases)
    func unknownEntitiesAndKeysAreErrorsThatSuggest(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Notes", kind: kind, in: directory)
        let entity = #expect(throws: StoreError.self) { try store.insert("Notes", ["title": .string("x")]) }
        #expect(entity?.code == .unknownEntity)
        #expect(entity?.message.contains("did you mean 'Note'") == true, "\(entity?.message ?? "")")

        let key = #expect(throws: StoreError.self) { try store.insert("Note", id: "N10", ["titel": .string("x")]) }
        #expect(key?.code == .unknownKey)
        #expect(key?.entity == "Note")
        #expect(key?.key == "titel")
        #expect(key?.objectID == "N10")
        #expect(key?.message.contains("did you mean 'title'") == true, "\(key?.message ?? "")")
        #expect(!Self.exists(store, "N10"))

        let update = #expect(throws: StoreError.self) { try store.update("N1", ["categroy": .string("C2")]) }
        #expect(update?.code == .unknownKey)
        #expect(update?.message.contains("did you mean 'category'") == true, "\(update?.message ?? "")")

        let relationship = #expect(throws: StoreError.self) { try store.update("N1", attributes: [:], relationships: ["tag": ["T1"]]) }
        #expect(relationship?.code == .unknownKey)
        #expect(relationship?.message.contains("did you mean 'tags'") == true, "\(relationship?.message ?? "")")

        // The book's MustC relationship name that the model does not have.
        let mustC = try Self.seedStore("MustC", kind: kind, in: directory)
        do {
            _ = try mustC.fetch(FetchRequest(statement: "FamilyMember WHERE favoriteMovies.@count > 0"))
            Issue.record("favoriteMovies is not a key of FamilyMember")
        } catch let error as StoreError {
            #expect(error.code == .unknownKey)
            #expect(error.message.contains("favoriteMovies"))
        }
        #expect(!store.hasChanges)
        #expect(!mustC.hasChanges)
    }

    @Test(arguments: StoreKind.allCases)
    func wrongTypesAreErrorsNamingTheObjectAndKey(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("Movies", kind: kind, in: directory)
        func insertError(_ attributes: [String: Value]) -> StoreError? {
            var all: [String: Value] = ["title": .string("T"), "duration": .int(90), "releaseDate": .string("2000-01-01T00:00:00Z")]
            for (key, value) in attributes { all[key] = value }
            return #expect(throws: StoreError.self) { try store.insert("Movie", id: "M99", all) }
        }
        for (key, value) in [("duration", Value.string("long")), ("duration", .double(1.5)), ("title", .int(7)),
                             ("watched", .int(2)), ("watched", .string("yes")), ("releaseDate", .string("yesterday")),
                             ("rating", .string("8.0")), ("posterImage", .string("not base64!"))] {
            let error = insertError([key: value])
            #expect(error?.code == .invalidValue, "\(key) = \(value)")
            #expect(error?.entity == "Movie", "\(key)")
            #expect(error?.objectID == "M99", "\(key)")
            #expect(error?.key == key, "\(key)")
            #expect(error?.message.contains(key) == true, "\(error?.message ?? "")")
        }
        #expect(!Self.exists(store, "M99"))

        // Integer ranges: Integer 16 holds -32768...32767.
        let points = try Self.seedStore("PointsOfInterest", kind: kind, in: directory)
        let range = #expect(throws: StoreError.self) { try points.update("PO1", ["synchronized": .int(40_000)]) }
        #expect(range?.code == .invalidValue)
        #expect(range?.message.contains("out of range") == true, "\(range?.message ?? "")")
        let uuid = #expect(throws: StoreError.self) { try points.update("PO1", ["identifier": .string("not-a-uuid")]) }
        #expect(uuid?.code == .invalidValue)
        #expect(Self.value(points, "PO1", "synchronized") == Self.text(.int(2)))

        // Relationships: an attribute given IDs, a relationship given a value, a destination of
        // the wrong entity, a dangling ID, two objects for a to-one.
        let attributeAsRelationship = #expect(throws: StoreError.self) {
            try store.update("M1", attributes: [:], relationships: ["title": ["M2"]])
        }
        #expect(attributeAsRelationship?.code == .invalidValue)
        let relationshipAsAttribute = #expect(throws: StoreError.self) { try store.update("M1", ["cast": .string("Actor-Amy-Adams")]) }
        #expect(relationshipAsAttribute?.code == .invalidValue)
        let wrongEntity = #expect(throws: StoreError.self) {
            try store.update("M1", attributes: [:], relationships: ["cast": ["Character-Spock"]])
        }
        #expect(wrongEntity?.code == .invalidValue)
        #expect(wrongEntity?.message.contains("Character-Spock") == true)
        let dangling = #expect(throws: StoreError.self) {
            try store.update("M1", attributes: [:], relationships: ["cast": ["Actor-Nobody"]])
        }
        #expect(dangling?.code == .unknownObject)
        #expect(dangling?.message.contains("Actor-Nobody") == true)
        let twoForToOne = #expect(throws: StoreError.self) {
            try store.update("Character-Spock", attributes: [:], relationships: ["movie": ["M1", "M2"]])
        }
        #expect(twoForToOne?.code == .invalidValue)
        #expect(Self.destinations(store, "M1", "cast")?.count == 3)
        #expect(Self.destinations(store, "Character-Spock", "movie") == ["M3"])
        #expect(!store.hasChanges)
    }

    @Test(arguments: StoreKind.allCases)
    func aDuplicateObjectIDIsAnError(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("MustC", kind: kind, in: directory)
        let error = #expect(throws: StoreError.self) { try store.insert("Movie", id: "FamilyMember-Anna", ["title": .string("Dup")]) }
        #expect(error?.code == .duplicateObjectID)
        #expect(error?.message.contains("FamilyMember-Anna") == true)
    }

    @Test(arguments: StoreKind.allCases)
    func deletingAnUnknownObjectIsAnError(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.seedStore("MustC", kind: kind, in: directory)
        let error = #expect(throws: StoreError.self) { try store.delete("Movie-Nope") }
        #expect(error?.code == .unknownObject)
        try store.delete("Movie-Up")
        let again = #expect(throws: StoreError.self) { try store.delete("Movie-Up") }
        #expect(again?.code == .unknownObject)
    }
}
