import ArgumentParser
import Foundation
import Sift

/// `sift schema`: the entities of a store's or a model file's model.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the entities, attributes and relationships of a store or a model.",
        discussion: """
            Examples:
              $ sift schema Recipes.sqlite
              $ sift schema --store notes.json
              $ sift schema --store chinook.db
              $ sift schema --model Examples/Notes/Notes.xcdatamodeld
              $ sift schema --store NoteStore.sqlite
              $ sift schema --model Examples/Movies/model.json --json
            """
    )

    @Argument(help: ArgumentHelp("A store file, as --store (a model folder or compiled model — .xcdatamodel, .xcdatamodeld, .mom, .momd — as --model), as `sqlite3 FILE .schema` takes it.",
                                 valueName: "FILE"))
    var file: String?

    @Option(help: ArgumentHelp("A store file (.sqlite, .db, .json or .plist).", valueName: "STORE"))
    var store: String?

    @Option(help: ArgumentHelp("A model file (model.json, .xcdatamodel, .xcdatamodeld, .mom or .momd); with --store, the model of a Core Data store.", valueName: "MODEL"))
    var model: String?

    @Flag(help: "Print the model in Sift's JSON model format.")
    var json = false

    @OptionGroup var readOnly: ReadOnlyOption

    /// The extensions of model files a positional FILE names (a `.json` file is a store).
    static let modelExtensions: Set<String> = ["xcdatamodel", "xcdatamodeld", "mom", "momd"]

    func validate() throws {
        if let file {
            // A store file may come with --model (a Core Data store's model); a model file alone.
            if Self.isModelFile(file) ? (store != nil || model != nil) : store != nil {
                throw ValidationError("give FILE or --store STORE, not both")
            }
        } else if store == nil && model == nil {
            throw ValidationError("give a store file (sift schema FILE), or --store STORE or --model MODEL")
        }
    }

    static func isModelFile(_ path: String) -> Bool {
        modelExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    mutating func run() throws {
        if let file {
            if Self.isModelFile(file) { model = file } else { store = file }
        }
        let model: DataModel
        var reasons: [String: [String: String]] = [:]
        var notes: [String: String] = [:]
        if let store {
            // With both, the model is a Core Data store's (`--model`).
            let opened = try StoreFile.open(store, readOnly: readOnly.isOn, model: self.model)
            model = opened.model
            if let origin = (opened as? any ModelOriginReportingStore)?.modelOrigin, !json { print("-- \(origin)") }
            reasons = SchemaText.typeReasons(of: opened)
            notes = SchemaText.samplingNotes(of: opened)
        } else {
            model = try StoreFile.loadModel(self.model ?? "")
        }
        if json {
            print(JSONModelFormat.write(model), terminator: "")
            return
        }
        print(SchemaText.describe(model, reasons: reasons, notes: notes), terminator: "")
    }
}

/// The model as text, one entity after another:
///
///     Note
///       title      String     required
///       contents   String
///       category   → Category  to-one, inverse notes, nullify
///
/// For a SQLite database Sift did not create, each attribute says why it has its type, and an
/// entity whose types were chosen from a sample of its rows says so beside its name:
///
///     key_names
///       id   Integer 64  (declared INTEGER)
///       key  String      (declared STRING)
///     batting (types from the first and last 1000 rows)
///       ...
enum SchemaText {
    /// Why a store's attributes have their types (a database Sift did not create), by entity
    /// and attribute; with `only`, of that entity alone (the others' tables are not read).
    static func typeReasons(of store: any PersistentStore, only entity: String? = nil) -> [String: [String: String]] {
        guard let introspected = store as? any IntrospectedModelStore else { return [:] }
        guard let entity else { return introspected.columnTypeReasons }
        return [entity: introspected.columnTypeReasons(of: entity)]
    }

    /// For each entity of a database Sift did not create whose types were chosen from a sample
    /// of its rows, what was read (`the first and last 1000 rows`).
    static func samplingNotes(of store: any PersistentStore) -> [String: String] {
        (store as? any IntrospectedModelStore)?.columnTypeSampling ?? [:]
    }

    static func describe(_ model: DataModel, only name: String? = nil, reasons: [String: [String: String]] = [:], notes: [String: String] = [:]) -> String {
        var out = ""
        for entity in model.entities where name == nil || entity.name == name {
            if !out.isEmpty { out += "\n" }
            var heading = entity.name
            if let parent = entity.parent { heading += " : \(parent)" }
            if entity.isAbstract { heading += " (abstract)" }
            if let note = notes[entity.name] { heading += " (types from \(note))" }
            out += heading + "\n"
            var rows: [[String]] = []
            for attribute in entity.attributes {
                var notes: [String] = []
                if !attribute.isOptional { notes.append("required") }
                if let d = attribute.defaultValue { notes.append("default \(JSONWriter.string(d))") }
                if attribute.isSearchable { notes.append("searchable") }
                if !entity.ownAttributes.contains(where: { $0.name == attribute.name }) { notes.append("inherited") }
                if let reason = reasons[entity.name]?[attribute.name] { notes.append("(\(reason))") }
                rows.append([attribute.name, attribute.type.name, notes.joined(separator: ", ")])
            }
            for relationship in entity.relationships {
                var notes = [relationship.isToMany ? (relationship.isOrdered ? "to-many, ordered" : "to-many") : "to-one"]
                if !relationship.isOptional { notes.append("required") }
                if let inverse = relationship.inverse { notes.append("inverse \(inverse)") }
                notes.append(relationship.deleteRule.rawValue)
                rows.append([relationship.name, "→ \(relationship.destination)", notes.joined(separator: ", ")])
            }
            for constraint in entity.uniquenessConstraints { rows.append(["unique", "(\(constraint.joined(separator: ", ")))", ""]) }
            for index in entity.indexes { rows.append(["index", "(\(index.joined(separator: ", ")))", ""]) }
            let widths = (0..<2).map { c in rows.map { $0[c].count }.max() ?? 0 }
            for row in rows {
                var line = "  " + row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0) + "  " +
                    row[1].padding(toLength: widths[1], withPad: " ", startingAt: 0) + "  " + row[2]
                while line.hasSuffix(" ") { line.removeLast() }
                out += line + "\n"
            }
        }
        return out
    }
}
