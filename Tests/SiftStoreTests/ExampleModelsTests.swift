import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// Examples/<App>/: the ten seed apps of SEED-APPS.md. Each folder holds `model.json`, the same
/// model as an Xcode `<App>.xcdatamodeld`, a fixture `data.json` (docs/IMPORT.md) and its example
/// fetches `fetches.json`. These tests check that the files agree with each other and have the
/// documented shape; running the fetches against the stores is another suite's job.
@Suite struct ExampleModelsTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examples = packageRoot.appendingPathComponent("Examples", isDirectory: true)

    /// Every app and, in order, the names of its example fetches (SEED-APPS.md; a row with two
    /// fetches, such as N6, is N6a and N6b).
    static let fetchNames: KeyValuePairs<String, [String]> = [
        "Notes": ["N1", "N2", "N3", "N4", "N5", "N6a", "N6b", "N7", "N8a", "N8b", "N9"],
        "NestedItems": ["I1", "I2", "I3", "I4", "I5", "I6"],
        "TaterRater": ["P1", "P2", "P3", "P4", "P5", "P6"],
        "MustC": ["F1", "F2", "F3", "F4", "F5", "F6", "F7"],
        "Movies": ["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "M9"],
        "VideoItems": ["V1", "V2", "V3", "V4", "V5", "V6"],
        "ToDoItem": ["D1", "D2", "D3", "D4", "D5", "D6"],
        "PointsOfInterest": ["O1", "O2", "O3", "O4", "O5"],
        "HouseholdTasks": ["H1", "H2", "H3", "H4", "H5", "H6"],
        "Albums": ["A1", "A2", "A3", "A4", "A5", "A6"],
    ]
    static let apps: [String] = fetchNames.map(\.key)

    static func folder(_ app: String) -> URL { examples.appendingPathComponent(app, isDirectory: true) }

    static func readJSON(_ url: URL) throws -> Value {
        try JSONParser.parse(try Data(contentsOf: url))
    }

    // MARK: Models

    @Test func everySeedAppHasAFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path)
        let withModels = names.filter { FileManager.default.fileExists(atPath: Self.examples.appendingPathComponent("\($0)/model.json").path) }
        #expect(Set(withModels) == Set(Self.apps))
        for app in Self.apps {
            for file in ["model.json", "data.json", "fetches.json", "\(app).xcdatamodeld"] {
                #expect(FileManager.default.fileExists(atPath: Self.folder(app).appendingPathComponent(file).path), "\(app)/\(file)")
            }
        }
    }

    @Test(arguments: apps)
    func theXcodeModelIsTheSameModelAsModelJSON(_ app: String) throws {
        let json = try ModelFile.load(Self.folder(app).appendingPathComponent("model.json"))
        var xcode = try ModelFile.load(Self.folder(app).appendingPathComponent("\(app).xcdatamodeld"))
        #expect(json.name == app)
        #expect(xcode.name == app)
        xcode.name = json.name
        #expect(JSONModelFormat.write(xcode) == JSONModelFormat.write(json))
    }

    @Test func notesHasTwoVersionsAndTheSecondIsCurrent() throws {
        let bundle = Self.folder("Notes").appendingPathComponent("Notes.xcdatamodeld")
        #expect(try XcodeModelFormat.versions(in: bundle).map(\.lastPathComponent) == ["Notes 2.xcdatamodel", "Notes.xcdatamodel"])
        #expect(try XcodeModelFormat.currentVersion(of: bundle).lastPathComponent == "Notes 2.xcdatamodel")
        let v1 = try ModelFile.load(bundle.appendingPathComponent("Notes.xcdatamodel"))
        let v2 = try ModelFile.load(bundle)
        #expect(v1.entity(named: "Category")?.attributes.map(\.name) == ["name"])
        #expect(v2.entity(named: "Category")?.attributes.map(\.name) == ["name", "colorAsHex"])
        #expect(v2.entity(named: "Category")?.attribute(named: "colorAsHex")?.defaultValue.map(ValueText.text) == "FFFFFF")
        #expect(v1.entities.map(\.name) == v2.entities.map(\.name))
    }

    /// Real older files carry `syncable="YES"` and an `<elements>` block; at least one example
    /// does, so loading them is exercised on whole files too.
    @Test func someExamplesAreInTheOlderXcodeStyle() throws {
        var older: [String] = []
        for app in Self.apps {
            let bundle = Self.folder(app).appendingPathComponent("\(app).xcdatamodeld")
            for version in try XcodeModelFormat.versions(in: bundle) {
                let text = try String(contentsOf: version.appendingPathComponent("contents"), encoding: .utf8)
                if text.contains("syncable=\"YES\"/>") && text.contains("<elements>") { older.append(app) }
            }
        }
        #expect(older.contains("Notes"))
        #expect(older.contains("NestedItems"))
    }

    // MARK: data.json

    struct Row {
        let id: String
        let entity: EntityDescription
        let fields: ValueDictionary
    }

    /// The rows of an app's data.json, checked against its model; problems are recorded as issues.
    static func rows(_ app: String, _ model: DataModel) throws -> [Row] {
        let top = try readJSON(folder(app).appendingPathComponent("data.json"))
        guard case .dictionary(let entities) = top else {
            Issue.record("\(app)/data.json: not an object of entity names")
            return []
        }
        var rows: [Row] = []
        var seen: Set<String> = []
        for (entityName, list) in entities.pairs {
            guard let listed = model.entity(named: entityName) else {
                Issue.record("\(app)/data.json: unknown entity '\(entityName)'")
                continue
            }
            guard case .array(let items) = list else {
                Issue.record("\(app)/data.json: \(entityName) is not an array of rows")
                continue
            }
            for item in items {
                guard case .dictionary(let fields) = item else {
                    Issue.record("\(app)/data.json: a row of \(entityName) is not an object")
                    continue
                }
                guard case .string(let id)? = fields["@id"], !id.isEmpty else {
                    Issue.record("\(app)/data.json: a row of \(entityName) has no \"@id\" string")
                    continue
                }
                if !seen.insert(id).inserted { Issue.record("\(app)/data.json: @id \(id) is used twice") }
                var entity = listed
                if let named = fields["@entity"] {
                    guard case .string(let sub) = named, let subentity = model.entity(named: sub), model.isKind(sub, of: entityName) else {
                        Issue.record("\(app)/data.json: \(id): \"@entity\" must name \(entityName) or one of its sub-entities")
                        continue
                    }
                    entity = subentity
                }
                if entity.isAbstract { Issue.record("\(app)/data.json: \(id) is a row of the abstract entity \(entity.name)") }
                rows.append(Row(id: id, entity: entity, fields: fields))
            }
        }
        return rows
    }

    @Test(arguments: apps)
    func dataJSONFitsTheModel(_ app: String) throws {
        let model = try ModelFile.load(Self.folder(app).appendingPathComponent("model.json"))
        let rows = try Self.rows(app, model)
        #expect(!rows.isEmpty)
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // (object, relationship) -> destinations, with inverses filled in as the importer does.
        var links: [String: [String: [String]]] = [:]
        var relationshipsUsed: Set<String> = []

        for row in rows {
            let place = "\(app)/data.json: \(row.id) (\(row.entity.name))"
            for (key, value) in row.fields.pairs where key != "@id" && key != "@entity" {
                switch row.entity.slot(of: key) {
                case nil:
                    Issue.record("\(place): '\(key)' is not a property of \(row.entity.name)")
                case .attribute(let i)?:
                    let attribute = row.entity.attributes[i]
                    if value.isNull {
                        if !attribute.isOptional { Issue.record("\(place): the required \(key) is null") }
                        continue
                    }
                    do throws(AttributeValueError) {
                        _ = try AttributeCoercion.storedValue(value, for: attribute.type)
                    } catch {
                        Issue.record("\(place): \(key): \(error.message)")
                    }
                case .relationship(let i)?:
                    let relationship = row.entity.relationships[i]
                    relationshipsUsed.insert("\(row.entity.rootEntity).\(key)")
                    var targets: [String] = []
                    switch (relationship.isToMany, value) {
                    case (false, .null): break
                    case (false, .string(let target)): targets = [target]
                    case (true, .array(let items)):
                        for item in items {
                            guard case .string(let target) = item else {
                                Issue.record("\(place): \(key) must list @id strings")
                                continue
                            }
                            targets.append(target)
                        }
                    default:
                        Issue.record("\(place): \(key) must be \(relationship.isToMany ? "an array of @ids" : "an @id or null")")
                    }
                    for target in targets {
                        guard let destination = byID[target] else {
                            Issue.record("\(place): \(key) refers to \(target), which is not in the file")
                            continue
                        }
                        guard model.isKind(destination.entity.name, of: relationship.destination) else {
                            Issue.record("\(place): \(key) refers to \(target), a \(destination.entity.name), not a \(relationship.destination)")
                            continue
                        }
                        links[row.id, default: [:]][key, default: []].append(target)
                        if let inverse = relationship.inverse {
                            links[target, default: [:]][inverse, default: []].append(row.id)
                        }
                    }
                }
            }
            for attribute in row.entity.attributes where !attribute.isOptional && attribute.defaultValue == nil {
                if row.fields[attribute.name] == nil || row.fields[attribute.name]?.isNull == true {
                    Issue.record("\(place): the required \(attribute.name) has no default and no value")
                }
            }
        }

        // Relationships are written on one side only; the importer fills in the inverse.
        for used in relationshipsUsed {
            let parts = used.split(separator: ".").map(String.init)
            guard let entity = model.entity(named: parts[0]), let relationship = entity.relationship(named: parts[1]),
                  let inverse = relationship.inverse, let destination = model.entity(named: relationship.destination) else { continue }
            if relationshipsUsed.contains("\(destination.rootEntity).\(inverse)") && "\(destination.rootEntity).\(inverse)" != used {
                Issue.record("\(app)/data.json: both \(used) and its inverse \(destination.name).\(inverse) are written")
            }
        }

        // With inverses filled in: a to-one has at most one destination, and a required
        // relationship has one (the fixture satisfies both readings of a required to-many).
        for row in rows {
            for relationship in row.entity.relationships {
                let count = links[row.id]?[relationship.name]?.count ?? 0
                if !relationship.isToMany && count > 1 {
                    Issue.record("\(app)/data.json: \(row.id).\(relationship.name) is a to-one set \(count) times")
                }
                if !relationship.isOptional && count == 0 {
                    Issue.record("\(app)/data.json: \(row.id).\(relationship.name) is required and empty")
                }
            }
        }
    }

    // MARK: fetches.json

    static let fetchKeys: Set<String> = ["name", "note", "statement", "request", "arguments", "variables", "property", "expect"]
    static let requestKeys: Set<String> = ["entityName", "predicate", "sortDescriptors", "fetchLimit", "fetchOffset",
                                           "sectionNameKeyPath", "resultType", "includesSubentities"]
    static let expectKeys: Set<String> = ["ordered", "unordered", "count", "sections", "error"]
    static let comparators: Set<String> = ["compare", "caseInsensitiveCompare", "localizedCompare",
                                           "localizedCaseInsensitiveCompare", "localizedStandardCompare"]

    /// The entity a statement fetches: the word after `FETCH`/`COUNT`, or the first word.
    static func statementEntity(_ statement: String) -> (entity: String, isCount: Bool)? {
        let words = statement.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return nil }
        switch first.uppercased() {
        case "FETCH": return words.count > 1 ? (words[1], false) : nil
        case "COUNT": return words.count > 1 ? (words[1], true) : nil
        default: return (first, false)
        }
    }

    /// The number of format arguments (`%@`, `%K`, `%d`, ...) outside quotes.
    static func placeholderCount(_ text: String) -> Int {
        var count = 0
        var quote: Character?
        var escaped = false
        var previousWasPercent = false
        for ch in text {
            if let q = quote {
                if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == q { quote = nil }
                continue
            }
            if previousWasPercent {
                previousWasPercent = false
                if ch == "@" || ch.isLetter { count += 1 }
                continue
            }
            if ch == "\"" || ch == "'" { quote = ch } else if ch == "%" { previousWasPercent = true }
        }
        return count
    }

    /// An argument or variable value: plain JSON, or one of the typed forms.
    static func checkArgument(_ value: Value, ids: Set<String>, _ place: String) {
        switch value {
        case .null, .bool, .int, .double, .string: return
        // JSONParser reads {"$date": ...}, {"$uuid": ...}, {"$data": ...} and {"$decimal": ...}
        // as typed values already (and rejects malformed ones).
        case .date, .uuid, .data, .decimal: return
        case .array(let items):
            for item in items { checkArgument(item, ids: ids, place) }
        case .dictionary(let typed):
            guard typed.count == 1, let key = typed.keys.first, case .string(let text)? = typed[key] else {
                Issue.record("\(place): a typed argument is one key with a string")
                return
            }
            switch key {
            case "$date": if ISO8601.date(from: text) == nil { Issue.record("\(place): \(text) is not an ISO 8601 date") }
            case "$uuid": if UUID(uuidString: text) == nil { Issue.record("\(place): \(text) is not a UUID") }
            case "$data": if Data(base64Encoded: text) == nil { Issue.record("\(place): \(text) is not base64") }
            case "$decimal": if Decimal(string: text, locale: nil) == nil { Issue.record("\(place): \(text) is not a decimal") }
            case "$ref": if !ids.contains(text) { Issue.record("\(place): $ref \(text) is not an @id in data.json") }
            default: Issue.record("\(place): unknown typed argument \(key)")
            }
        default:
            Issue.record("\(place): an argument cannot be \(value.kindName)")
        }
    }

    @Test(arguments: apps)
    func fetchesJSONHasTheDocumentedShape(_ app: String) throws {
        let model = try ModelFile.load(Self.folder(app).appendingPathComponent("model.json"))
        let rows = try Self.rows(app, model)
        let ids = Set(rows.map(\.id))
        let top = try Self.readJSON(Self.folder(app).appendingPathComponent("fetches.json"))
        guard case .dictionary(let fields) = top, fields.keys == ["fetches"], case .array(let fetches)? = fields["fetches"] else {
            Issue.record("\(app)/fetches.json: expected {\"fetches\": [...]}")
            return
        }
        var names: [String] = []
        for item in fetches {
            guard case .dictionary(let fetch) = item else {
                Issue.record("\(app)/fetches.json: a fetch is not an object")
                continue
            }
            guard case .string(let name)? = fetch["name"] else {
                Issue.record("\(app)/fetches.json: a fetch has no name")
                continue
            }
            names.append(name)
            let place = "\(app)/fetches.json: \(name)"
            for key in fetch.keys where !Self.fetchKeys.contains(key) { Issue.record("\(place): unknown key \(key)") }
            if case .string? = fetch["note"] {} else { Issue.record("\(place): \"note\" must be a string") }

            // Exactly one of statement / request; the entity it fetches.
            var entityName: String?
            var isCount = false
            var formats: [String] = []
            switch (fetch["statement"], fetch["request"]) {
            case (.string(let statement)?, nil):
                if let parsed = Self.statementEntity(statement) {
                    entityName = parsed.entity
                    isCount = parsed.isCount
                }
                formats.append(statement)
            case (nil, .dictionary(let request)?):
                for key in request.keys where !Self.requestKeys.contains(key) { Issue.record("\(place): unknown request key \(key)") }
                if case .string(let entity)? = request["entityName"] { entityName = entity }
                if case .string(let predicate)? = request["predicate"] { formats.append(predicate) }
                switch request["resultType"] {
                case nil, .string("objects")?: break
                case .string("count")?: isCount = true
                default: Issue.record("\(place): resultType must be \"objects\" or \"count\"")
                }
                for key in ["fetchLimit", "fetchOffset"] {
                    if let value = request[key] {
                        guard case .int(let n) = value, n >= 0 else {
                            Issue.record("\(place): \(key) must be a non-negative integer")
                            continue
                        }
                    }
                }
                if let value = request["includesSubentities"], case .bool = value {} else if request["includesSubentities"] != nil {
                    Issue.record("\(place): includesSubentities must be true or false")
                }
                if let value = request["sectionNameKeyPath"], case .string = value {} else if request["sectionNameKeyPath"] != nil {
                    Issue.record("\(place): sectionNameKeyPath must be a string")
                }
                if let value = request["sortDescriptors"] {
                    guard case .array(let sorts) = value else {
                        Issue.record("\(place): sortDescriptors must be an array")
                        break
                    }
                    for sort in sorts {
                        guard case .dictionary(let descriptor) = sort, case .string? = descriptor["key"] else {
                            Issue.record("\(place): a sort descriptor needs a \"key\"")
                            continue
                        }
                        for key in descriptor.keys where !["key", "ascending", "comparator"].contains(key) {
                            Issue.record("\(place): unknown sort descriptor key \(key)")
                        }
                        if let ascending = descriptor["ascending"], case .bool = ascending {} else if descriptor["ascending"] != nil {
                            Issue.record("\(place): ascending must be true or false")
                        }
                        if let comparator = descriptor["comparator"] {
                            guard case .string(let c) = comparator, Self.comparators.contains(c) else {
                                Issue.record("\(place): unknown comparator")
                                continue
                            }
                        }
                    }
                }
            default:
                Issue.record("\(place): needs exactly one of \"statement\" (a string) and \"request\" (an object)")
            }
            guard let entityName, let entity = model.entity(named: entityName) else {
                Issue.record("\(place): the fetched entity is not in the model")
                continue
            }

            // Arguments and variables.
            if case .array(let arguments)? = fetch["arguments"] {
                for argument in arguments { Self.checkArgument(argument, ids: ids, place) }
                let placeholders = formats.map(Self.placeholderCount).reduce(0, +)
                #expect(placeholders == arguments.count, "\(place): \(placeholders) placeholders, \(arguments.count) arguments")
            } else {
                Issue.record("\(place): \"arguments\" must be an array")
            }
            if case .dictionary(let variables)? = fetch["variables"] {
                for (_, value) in variables.pairs { Self.checkArgument(value, ids: ids, place) }
            } else {
                Issue.record("\(place): \"variables\" must be an object")
            }

            // The identifying property, and the values of it the fixture has.
            guard case .string(let property)? = fetch["property"], property == "@id" || entity.attribute(named: property) != nil else {
                Issue.record("\(place): \"property\" must be \"@id\" or an attribute of \(entity.name)")
                continue
            }
            var known: Set<String> = []
            for row in rows where model.isKind(row.entity.name, of: entity.name) {
                if property == "@id" {
                    known.insert(JSONWriter.string(.string(row.id)))
                } else {
                    let value = row.fields[property] ?? entity.attribute(named: property)?.defaultValue.map(JSONModelFormat.plainJSON) ?? .null
                    known.insert(JSONWriter.string(value))
                }
            }
            func checkValues(_ value: Value?, _ label: String) {
                guard case .array(let values)? = value else {
                    Issue.record("\(place): \(label) must be an array")
                    return
                }
                for value in values where !known.contains(JSONWriter.string(value)) {
                    Issue.record("\(place): \(label) lists \(JSONWriter.string(value)), which no \(entity.name) in data.json has as \(property)")
                }
            }

            // Exactly one expect form.
            guard case .dictionary(let expect)? = fetch["expect"], expect.count == 1, let form = expect.keys.first,
                  Self.expectKeys.contains(form) else {
                Issue.record("\(place): \"expect\" must be exactly one of \(Self.expectKeys.sorted())")
                continue
            }
            if (form == "count") != isCount && form != "error" {
                Issue.record("\(place): a count fetch expects {\"count\": n}, and only a count fetch does")
            }
            switch (form, expect[form]) {
            case ("ordered", let values), ("unordered", let values):
                checkValues(values, form)
            case ("count", .int(let n)?) where n >= 0:
                break
            case ("sections", .array(let sections)?):
                for section in sections {
                    guard case .dictionary(let s) = section, Set(s.keys) == ["name", "indexTitle", "objects"],
                          case .string? = s["name"], case .string? = s["indexTitle"] else {
                        Issue.record("\(place): a section is {\"name\", \"indexTitle\", \"objects\"}")
                        continue
                    }
                    checkValues(s["objects"], "a section's objects")
                }
            case ("error", .string(let text)?) where !text.isEmpty:
                break
            default:
                Issue.record("\(place): the value of \"\(form)\" has the wrong shape")
            }
        }
        let expected = Self.fetchNames.first(where: { $0.key == app })?.value ?? []
        #expect(names == expected, "\(app)/fetches.json")
    }

    /// Every form the format offers is used somewhere: statements and requests, each expect form.
    @Test func theExamplesUseEveryForm() throws {
        var statements = 0
        var requests = 0
        var forms: Set<String> = []
        var nonDefaultSubentities = false
        for app in Self.apps {
            guard case .dictionary(let top) = try Self.readJSON(Self.folder(app).appendingPathComponent("fetches.json")),
                  case .array(let fetches)? = top["fetches"] else { continue }
            for case .dictionary(let fetch) in fetches {
                if fetch["statement"] != nil { statements += 1 }
                if case .dictionary(let request)? = fetch["request"] {
                    requests += 1
                    if case .bool(false)? = request["includesSubentities"] { nonDefaultSubentities = true }
                }
                if case .dictionary(let expect)? = fetch["expect"] { forms.formUnion(expect.keys) }
            }
        }
        #expect(statements > 40)
        #expect(requests >= 3)
        #expect(nonDefaultSubentities)
        #expect(forms == Self.expectKeys)
    }
}
