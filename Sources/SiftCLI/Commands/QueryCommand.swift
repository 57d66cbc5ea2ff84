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

    @OptionGroup var coreDataModel: CoreDataModelOption

    @Option(help: ArgumentHelp("json, jsonl, table, csv, box, line or markdown.", valueName: "FORMAT"))
    var output: OutputFormat = .json

    @Option(help: ArgumentHelp("How objects show to-many relationships: counts (the number of destinations), ids (their @id values) or none (no relationships).", valueName: "counts|ids|none"))
    var relationships: RelationshipDetail = .counts

    @Option(help: ArgumentHelp("The attributes and relationships objects show, in this order (comma-separated; all when not given).", valueName: "NAMES"))
    var properties: String?

    func validate() throws {
        if output == .indices { throw ValidationError("--output indices is for 'sift filter'; use json, jsonl, table, csv, box, line or markdown") }
        if let properties { _ = try ObjectOutput.propertyList(properties) }
    }

    /// What the command line asks for, apart from the parser.
    var invocation: QueryInvocation {
        QueryInvocation(store: store, source: fetch.source, readOnly: readOnly.isOn, output: output, relationships: relationships,
                        properties: properties, model: coreDataModel.path)
    }

    func run() throws { try invocation.run() }
}
