import ArgumentParser
import Foundation
import Sift

/// `sift query`: one fetch on a store.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run one fetch on a store and print the results.",
        discussion: """
            The fetch is a statement or a JSON fetch request (--request FILE.json; docs/FETCH-REQUESTS.md):

              [FETCH] Entity [WHERE predicate] [SORT BY key [ASC|DESC] [USING comparator], ...]
                  [SECTION BY keypath] [LIMIT n] [OFFSET n]
              COUNT Entity [WHERE predicate]
              SELECT [DISTINCT] * | expression [AS name], ... FROM Entity [WHERE predicate]
                  [GROUP BY expression, ...] [HAVING predicate] [SORT BY ...] [LIMIT n] [OFFSET n]

            ORDER BY is a synonym of SORT BY; keywords are case-insensitive. --arg binds %@, %K, %d ... in order (a stored object is {"$ref": "<object ID>"}); --var binds $NAME.

            JSON output: objects as {"@entity", "@id", attributes..., relationships}; a to-one relationship is its destination's @id (or null), a to-many one its number of destinations ("tracks": 1297), or with --relationships ids the array of their @id values (--relationships none leaves relationships out; both are read a batch of objects at a time); --properties a,b prints only those attributes and relationships, in that order; sections as {"sections": [{"name", "indexTitle", "numberOfObjects", "objects"}]}; a count as {"count": n}; SELECT rows as objects. The store kind follows the extension: .sqlite or .db (SQLite; any SQLite database can be queried), .json (JSON store) or .plist (binary store); when the extension says nothing, the file's first bytes do.

            Examples:
              $ sift query --store notes.json 'Note WHERE title BEGINSWITH[cd] "my" SORT BY updatedAt DESC'
              $ sift query --store notes.json 'Note WHERE category == %@' --arg '{"$ref": "C1"}' --output table
              $ sift query --store notes.json 'COUNT Note WHERE ANY tags.name == "Family"'
              $ sift query --store notes.json 'Note SORT BY category.name SECTION BY category.name'
              $ sift query --store albums.plist 'SELECT artist.name AS artist, count:(title) AS albums FROM Album GROUP BY artist.name'
              $ sift query --store notes.json --request fetch.json
              $ sift query --store chinook.db 'Album WHERE Artist.Name == "AC/DC"' --output table
              $ sift query --store notes.json 'Category SORT BY name' --relationships ids
              $ sift query --store notes.json Note --properties title,tags --output table
            """
    )

    @Option(help: ArgumentHelp("The store file (.sqlite, .db, .json or .plist), or a PostgreSQL database (postgres://USER@HOST/DB).", valueName: "STORE"))
    var store: String

    @OptionGroup var fetch: FetchInput

    @OptionGroup var readOnly: ReadOnlyOption

    @Option(help: ArgumentHelp("json, jsonl, table or csv.", valueName: "FORMAT"))
    var output: OutputFormat = .json

    @Option(help: ArgumentHelp("How objects show to-many relationships: counts (the number of destinations), ids (their @id values) or none (no relationships).", valueName: "counts|ids|none"))
    var relationships: RelationshipDetail = .counts

    @Option(help: ArgumentHelp("The attributes and relationships objects show, in this order (comma-separated; all when not given).", valueName: "NAMES"))
    var properties: String?

    func validate() throws {
        if output == .indices { throw ValidationError("--output indices is for 'sift filter'; use json, jsonl, table or csv") }
        if let properties { _ = try ObjectOutput.propertyList(properties) }
    }

    func run() throws {
        var fetch = try self.fetch.makeRequest()
        // Objects are read a batch at a time as they are printed (memory stays flat, and an
        // error midway comes after the objects before it).
        if fetch.fetchBatchSize == 0 { fetch.fetchBatchSize = FetchPrinter.batchSize }
        let store = try StoreFile.open(self.store, readOnly: readOnly.isOn)
        let standardOutput = StandardOutput()
        let model = StoreModels.outline(of: store)
        // The objects of an entity without subentities all show the same keys, in one order,
        // so even csv, whose header is every result's keys, prints each as it is read.
        let sameKeys = fetch.resultType == .objects && fetch.sectionNameKeyPath == nil
            && model.entity(named: fetch.entityName)?.entityAndSubentities.count == 1
        var renderer = output.makeRenderer(standardOutput, sameKeys: sameKeys)
        let objectOutput = ObjectOutput(relationships: relationships, properties: try properties.map(ObjectOutput.propertyList))
        // json and jsonl print an object's text, written straight from its values; the other
        // formats read the object's dictionary.
        let writer = output.printsRecordText ? ObjectJSONWriter(objectOutput, model: model) : nil
        var text: [UInt8] = []
        func match(_ object: ManagedObject, position: Int) -> Match {
            guard let writer else { return StoredObjectJSON.match(objectOutput.value(of: object, model: model), position: position) }
            text.removeAll(keepingCapacity: true)
            writer.write(object, to: &text)
            return Match(compactText: text, position: position)
        }
        self.fetch.printWarnings(fetch, on: store)
        do {
            try objectOutput.prepare(&fetch, model: model)
            if fetch.sectionNameKeyPath != nil && fetch.resultType == .objects {
                let sectioned = try store.fetchSections(fetch)
                if let warning = sectioned.warning { Output.error("warning: \(warning)") }
                try FetchedSectionsPrinter.print(sectioned, to: renderer, match: match)
            } else {
                switch try store.execute(fetch) {
                case .objects(let objects):
                    // Objects stream from the store as they are printed; a store that fails
                    // midway (a damaged file) throws here, after the objects before it.
                    var i = 0
                    try objects.forEachObject { object in
                        renderer.write(match(object, position: i))
                        i += 1
                    }
                case .dictionaries(let rows):
                    for (i, row) in rows.enumerated() { renderer.write(StoredObjectJSON.match(StoredObjectJSON.value(of: row), position: i)) }
                case .objectIDs(let ids):
                    for (i, id) in ids.enumerated() {
                        renderer.write(StoredObjectJSON.match(.dictionary(ValueDictionary([("@id", .string(id.rawValue))])), position: i))
                    }
                case .count(let n):
                    let value = Value.dictionary(ValueDictionary([("count", .int(Int64(n)))]))
                    if output == .json {
                        standardOutput.write(Array("{\"count\": \(n)}\n".utf8))
                        standardOutput.flush()
                        return
                    }
                    renderer.write(StoredObjectJSON.match(value, position: 0))
                }
                renderer.finish()
            }
        } catch {
            // What was printed stays, closed so that it is still valid JSON.
            renderer.abandon()
            standardOutput.endLine()
            standardOutput.flush()
            Output.error("error: \(ErrorText.message(of: error))")
            throw ExitCode(1)
        }
        standardOutput.flush()
    }
}
