import Foundation
import SiftEvaluation
import SiftLanguage

/// Xcode's Core Data model files: a `.xcdatamodel` folder (its `contents` XML) or a
/// `.xcdatamodeld` bundle of versions.
///
/// A bundle holds one `.xcdatamodel` per model version. Its `.xccurrentversion` property list
/// names the current one (`_XCCurrentVersionName`, e.g. `Notes 2.xcdatamodel`), which is the
/// one loaded. A bundle without `.xccurrentversion` must hold exactly one version. The model is
/// named after the bundle (or the folder) without its extension.
///
/// What is read from `contents`:
///
/// - `<model>`: the root element; anything else is not a Core Data model.
/// - `<entity name= parentEntity= isAbstract="YES">` (inheritance and abstract entities), in
///   file order. `representedClassName` is accepted and not kept.
/// - `<attribute name= attributeType= optional="YES" defaultValueString=>`: `attributeType` is
///   one of `String`, `Integer 16`, `Integer 32`, `Integer 64`, `Decimal`, `Double`, `Float`,
///   `Boolean`, `Date`, `Binary` (also `Binary Data`), `UUID`, `URI`, `Transformable`. A property
///   without `optional="YES"` is required. `defaultValueString` is read as Xcode writes it:
///   `YES`/`NO` for a Boolean, seconds since 2001-01-01 00:00:00 UTC for a Date, numbers as
///   text, a UUID string, base64 for Binary; it must fit the type.
///   `indexed="YES"` (older files) declares a one-attribute index. A String attribute whose
///   `<userInfo>` holds `<entry key="siftSearchable" value="YES"/>` (also `true` or `1`) is
///   searchable (``AttributeDescription/isSearchable``; Xcode's model editor shows it as a
///   User Info entry of the attribute). `allowsExternalBinaryDataStorage="YES"` is not part of
///   Sift's model: ``loadCoreData(_:)`` keeps it for Core Data's layout (``CoreDataEntityDetails/attributeFlags``).
/// - `<relationship name= destinationEntity= toMany="YES" inverseName= inverseEntity=
///   deletionRule= ordered="YES" optional="YES" minCount= maxCount=>`: `deletionRule` is
///   `Nullify` (also the default when it is missing), `Cascade`, `Deny` or `No Action`.
///   `inverseEntity`, when given, must be the destination. `minCount`/`maxCount` are kept for
///   to-many relationships; on a to-one (`maxCount="1"`, older files also `minCount="1"`) they
///   say nothing the to-one does not.
/// - `<uniquenessConstraints><uniquenessConstraint><constraint value=>`: each
///   `uniquenessConstraint` is one constraint over the properties it lists.
/// - `<fetchIndex name=><fetchIndexElement property= type= order=>`: an index over the listed
///   properties; the index name, `type` (Binary or R-Tree) and `order` are hints Sift does not
///   need. Older files' `<compoundIndexes><compoundIndex><index value=>` are read the same way.
///
/// What is ignored (accepted and skipped): `syncable`, `usesScalarValueType`,
/// `representedClassName`, `codeGenerationType`, `customClassName`, `valueTransformerName`,
/// `elementID`/`renamingIdentifier`, validation bounds (`minValueString`, `maxValueString`,
/// `regularExpressionString`), `derived` and
/// `derivationExpression` (a derived attribute is read as a stored one), `spotlightIndexingEnabled`,
/// `preservesValueInHistoryOnDeletion`, any other XML attribute; the `<elements>` block (the
/// diagram layout), `<configuration>`, `<fetchRequest>` templates, `<fetchedProperty>` (fetched
/// properties are queries, not stored properties), `<userInfo>` entries other than an attribute's
/// `siftSearchable`, and fetch index elements given
/// by an `expression=` instead of a property (such an index is skipped). Transient attributes
/// and relationships (`transient="YES"`) are skipped: nothing is stored for them, so they cannot
/// be fetched on.
///
/// A `.xcdatamodel` folder without `contents` but with an `elements` file (Xcode 3's binary
/// model) is read with ``CoreDataModel/init(xcodeElements:name:)``.
///
/// Errors name the file and, for problems inside `contents`, the line of the element. A
/// malformed file is an error, never a crash (Sift's own XML scanner reads it): text that is
/// not UTF-8 is refused before reading, entity declarations (`<!ENTITY`, which Xcode never
/// writes) and processing instructions other than the XML declaration as they are met.
public enum XcodeModelFormat {
    /// The user-info key that marks an attribute searchable.
    public static let searchableKey = "siftSearchable"

    /// Loads a `.xcdatamodel` folder or a `.xcdatamodeld` bundle (its current version).
    public static func load(_ url: URL) throws(ModelError) -> DataModel {
        try loadCoreData(url).model
    }

    /// Loads a `.xcdatamodel` folder or a `.xcdatamodeld` bundle as ``load(_:)`` does, with what
    /// Core Data's layout needs beside the model: all of it from Xcode 3's binary `elements`
    /// (Core Data's own archive), what can be derived from a `contents` file
    /// (``CoreDataModel/init(deriving:)``).
    public static func loadCoreData(_ url: URL) throws(ModelError) -> CoreDataModel {
        let name = url.deletingPathExtension().lastPathComponent
        switch url.pathExtension.lowercased() {
        case "xcdatamodeld":
            let version = try currentVersion(of: url)
            return try loadVersion(version, name: name)
        case "xcdatamodel":
            return try loadVersion(url, name: name)
        default:
            throw ModelError("\(url.path): not an Xcode data model (expected a .xcdatamodel folder or a .xcdatamodeld bundle)")
        }
    }

    /// The `.xcdatamodel` folders of a `.xcdatamodeld` bundle, sorted by name.
    public static func versions(in bundle: URL) throws(ModelError) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: bundle.path)
        } catch {
            throw ModelError("\(bundle.path): cannot read the model bundle: \(describe(error))")
        }
        return names.filter { $0.lowercased().hasSuffix(".xcdatamodel") }.sorted()
            .map { bundle.appendingPathComponent($0, isDirectory: true) }
    }

    /// The version a `.xcdatamodeld` bundle names as current in `.xccurrentversion`, or its
    /// only version when there is no `.xccurrentversion`.
    public static func currentVersion(of bundle: URL) throws(ModelError) -> URL {
        let available = try versions(in: bundle)
        let names = available.map(\.lastPathComponent)
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        guard FileManager.default.fileExists(atPath: marker.path) else {
            if available.count == 1 { return available[0] }
            if available.isEmpty { throw ModelError("\(bundle.path): the bundle holds no .xcdatamodel version") }
            throw ModelError("\(bundle.path): the bundle holds \(available.count) versions (\(names.joined(separator: ", "))) and no .xccurrentversion to say which is current")
        }
        let data: Data
        do {
            data = try Data(contentsOf: marker)
        } catch {
            throw ModelError("\(marker.path): cannot read: \(describe(error))")
        }
        if let refusal = BinaryPropertyListScreen.refusal(data) {
            throw ModelError("\(marker.path): not a version marker: \(refusal)")
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ModelError("\(marker.path): not a property list: \(describe(error))")
        }
        guard let dictionary = plist as? [String: Any], let current = dictionary["_XCCurrentVersionName"] as? String else {
            throw ModelError("\(marker.path): no _XCCurrentVersionName string naming the current version")
        }
        guard let version = available.first(where: { $0.lastPathComponent == current }) else {
            var message = "\(marker.path): the current version '\(current)' is not in the bundle"
            message += names.isEmpty ? " (it holds no .xcdatamodel)" : " (versions: \(names.joined(separator: ", ")))"
            throw ModelError(message)
        }
        return version
    }

    /// Reads one `.xcdatamodel` folder's `contents`.
    static func loadVersion(_ folder: URL, name: String) throws(ModelError) -> CoreDataModel {
        let contents = folder.appendingPathComponent("contents")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ModelError("\(folder.path): no such model folder")
        }
        guard FileManager.default.fileExists(atPath: contents.path) else {
            let elements = folder.appendingPathComponent("elements")
            guard FileManager.default.fileExists(atPath: elements.path) else {
                throw ModelError("\(folder.path): the model has no contents file and no elements file")
            }
            return try loadElements(elements, name: name)
        }
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            throw ModelError("\(contents.path): cannot read: \(describe(error))")
        }
        return CoreDataModel(deriving: try read(contents: data, name: name, file: contents.path),
                             externalStorage: externalStorageAttributes(contents: data))
    }

    /// Reads Xcode's old binary model, a folder's `elements` file (`XcodeElementsDecoder`).
    static func loadElements(_ elements: URL, name: String) throws(ModelError) -> CoreDataModel {
        let data: Data
        do {
            data = try Data(contentsOf: elements)
        } catch {
            throw ModelError("\(elements.path): cannot read: \(describe(error))")
        }
        do throws(CoreDataModelError) {
            return try CoreDataModel(xcodeElements: data, name: name)
        } catch {
            throw ModelError("\(elements.path): \(error.message)")
        }
    }

    /// Reads a model from the text of a `contents` file; `file` names it in errors.
    public static func read(contents data: Data, name: String, file: String = "contents") throws(ModelError) -> DataModel {
        // Names and values are read as UTF-8: bytes that are not would be repaired in silence.
        if let line = firstLineNotUTF8(data) {
            throw ModelError("\(file):\(line): malformed XML: the text is not UTF-8")
        }
        var scanner = ModelXMLScanner([UInt8](data))
        let reader = ContentsReader(file: file)
        do throws(ModelXMLScanner.Malformed) {
            while reader.error == nil, let event = try scanner.next() {
                reader.line = scanner.line
                switch event {
                case .start(let name, let attributes): reader.start(name, attributes)
                case .end(let name): reader.end(name)
                }
            }
        } catch {
            throw ModelError("\(file):\(error.line): malformed XML: \(error.reason)")
        }
        if let error = reader.error { throw error }
        guard reader.sawModel else { throw ModelError("\(file): not a Core Data model (no <model> element)") }
        do throws(ModelError) {
            return try DataModel(name: name, entities: reader.entities)
        } catch {
            throw ModelError("\(file): \(error.message)")
        }
    }

    /// The attributes of a `contents` file that allow external binary storage
    /// (`allowsExternalBinaryDataStorage="YES"`, also `true` or `1`), as `Entity.attribute`;
    /// empty for a file that does not read (``read(contents:name:file:)`` says why).
    static func externalStorageAttributes(contents data: Data) -> Set<String> {
        var scanner = ModelXMLScanner([UInt8](data))
        var entity: String?
        var found: Set<String> = []
        while let event = try? scanner.next() {
            guard case .start(let name, let attributes) = event else { continue }
            if name == "entity" { entity = attributes["name"] }
            if name == "attribute", let entity, let attribute = attributes["name"],
               ["yes", "true", "1"].contains(attributes["allowsExternalBinaryDataStorage"]?.lowercased() ?? "") {
                found.insert(entity + "." + attribute)
            }
        }
        return found
    }

    /// The 1-based line of the first byte sequence that is not UTF-8; nil when all of it is.
    static func firstLineNotUTF8(_ data: Data) -> Int? {
        var line = 1
        var iterator = data.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
            case .emptyInput:
                return nil
            case .error:
                return line
            }
        }
    }

    static func describe(_ error: any Error) -> String {
        FoundationErrorText.describe(error)
    }
}

/// Collects the entities of `contents` from its elements (``ModelXMLScanner``). The first
/// problem is kept in ``error`` and ends the reading.
final class ContentsReader {
    let file: String
    /// The line of the element being read.
    var line = 1
    var entities: [EntityDescription] = []
    var error: ModelError?
    var sawModel = false

    /// The element names from the root to the current element.
    private var path: [String] = []
    /// How deep inside an element whose content is ignored (0: not inside one).
    private var ignoredDepth = 0
    private var entity: EntityDescription?
    private var constraint: [String]?
    private var index: [String]?
    private var indexIsUsable = true
    /// The attribute whose `<userInfo>` is being read (nil when it was skipped: transient).
    private var attribute: String?

    init(file: String) { self.file = file }

    private func fail(_ message: String) {
        guard error == nil else { return }
        error = ModelError("\(file):\(line): \(message)")
    }

    func start(_ element: String, _ attributes: [String: String]) {
        guard error == nil else { return }
        defer { path.append(element) }
        if ignoredDepth > 0 {
            ignoredDepth += 1
            return
        }
        let parent = path.last
        switch (parent, element) {
        case (nil, "model"):
            sawModel = true
        case (nil, _):
            fail("not a Core Data model: the root element is <\(element)>, not <model>")
        case ("model", "entity"):
            startEntity(attributes)
        case ("model", _):
            // <elements>, <configuration>, <fetchRequest> and anything newer: not part of the schema.
            ignoredDepth = 1
        case ("entity", "attribute"):
            addAttribute(attributes)
        case ("attribute", "userInfo"):
            break
        case ("userInfo", "entry") where path.dropLast().last == "attribute":
            if attributes["key"] == XcodeModelFormat.searchableKey { markSearchable(attributes["value"] ?? "") }
            ignoredDepth = 1
        case ("attribute", _):
            ignoredDepth = 1
        case ("entity", "relationship"):
            addRelationship(attributes)
            ignoredDepth = 1
        case ("entity", "uniquenessConstraints"), ("entity", "compoundIndexes"):
            break
        case ("uniquenessConstraints", "uniquenessConstraint"):
            constraint = []
        case ("uniquenessConstraint", "constraint"):
            guard let value = attributes["value"], !value.isEmpty else {
                return fail("entity \(entity?.name ?? "?"): a <constraint> has no value")
            }
            constraint?.append(value)
        case ("entity", "fetchIndex"), ("compoundIndexes", "compoundIndex"):
            index = []
            indexIsUsable = true
        case ("fetchIndex", "fetchIndexElement"):
            if let property = attributes["property"], !property.isEmpty {
                index?.append(property)
            } else {
                indexIsUsable = false  // an expression index
            }
        case ("compoundIndex", "index"):
            guard let value = attributes["value"], !value.isEmpty else {
                return fail("entity \(entity?.name ?? "?"): an <index> has no value")
            }
            index?.append(value)
        case ("entity", _):
            // <fetchedProperty>, <userInfo> and anything newer.
            ignoredDepth = 1
        default:
            ignoredDepth = 1
        }
    }

    func end(_ element: String) {
        guard error == nil else { return }
        path.removeLast()
        if ignoredDepth > 0 {
            ignoredDepth -= 1
            return
        }
        switch element {
        case "entity":
            if let entity { entities.append(entity) }
            entity = nil
        case "attribute":
            attribute = nil
        case "uniquenessConstraint":
            if let constraint {
                guard !constraint.isEmpty else {
                    return fail("entity \(entity?.name ?? "?"): an empty <uniquenessConstraint>")
                }
                entity?.uniquenessConstraints.append(constraint)
            }
            constraint = nil
        case "fetchIndex", "compoundIndex":
            if let index, indexIsUsable, !index.isEmpty { entity?.indexes.append(index) }
            index = nil
        default:
            break
        }
    }

    // MARK: Elements

    private func startEntity(_ attributes: [String: String]) {
        guard let name = attributes["name"], !name.isEmpty else { return fail("an <entity> has no name") }
        guard let abstract = flag(attributes, "isAbstract", "entity \(name)") else { return }
        let parentName = attributes["parentEntity"].flatMap { $0.isEmpty ? nil : $0 }
        entity = EntityDescription(name: name, parent: parentName, isAbstract: abstract)
    }

    private func addAttribute(_ fields: [String: String]) {
        let entityName = entity?.name ?? "?"
        guard let name = fields["name"], !name.isEmpty else { return fail("entity \(entityName): an <attribute> has no name") }
        let place = "attribute \(entityName).\(name)"
        guard let transient = flag(fields, "transient", place),
              let optional = flag(fields, "optional", place),
              let indexed = flag(fields, "indexed", place) else { return }
        if transient { return }
        guard let typeName = fields["attributeType"] else {
            return fail("\(place) has no attributeType (an Undefined attribute must be transient)")
        }
        guard let type = AttributeType(name: typeName) else {
            var message = "\(place): unknown attributeType '\(typeName)'"
            let names = AttributeType.allCases.map(\.name)
            if let suggestion = Suggestions.closest(to: typeName, in: names) {
                message += "; did you mean '\(suggestion)'?"
            } else {
                message += " (types: \(names.joined(separator: ", ")))"
            }
            return fail(message)
        }
        var defaultValue: Value?
        if let text = fields["defaultValueString"] {
            guard let raw = Self.defaultValue(text, type) else {
                return fail("\(place): defaultValueString '\(text)' is not a valid \(type.name)\(Self.defaultHint(type))")
            }
            do throws(AttributeValueError) {
                defaultValue = try AttributeCoercion.storedValue(raw, for: type)
            } catch {
                return fail("\(place): defaultValueString '\(text)': \(error.message)")
            }
        }
        entity?.ownAttributes.append(AttributeDescription(name: name, type: type, isOptional: optional, defaultValue: defaultValue))
        attribute = name
        if indexed { entity?.indexes.append([name]) }
    }

    /// A `siftSearchable` user-info entry of the attribute being read (`YES`, `true`, `1`; `NO`,
    /// `false`, `0` leave it as it is). The model checks the attribute is a String.
    private func markSearchable(_ value: String) {
        guard let name = attribute, let position = entity?.ownAttributes.lastIndex(where: { $0.name == name }) else { return }
        guard let searchable = flag(["value": value], "value", "attribute \(entity?.name ?? "?").\(name): user info \(XcodeModelFormat.searchableKey)") else { return }
        if searchable { entity?.ownAttributes[position].isSearchable = true }
    }

    private func addRelationship(_ fields: [String: String]) {
        let entityName = entity?.name ?? "?"
        guard let name = fields["name"], !name.isEmpty else { return fail("entity \(entityName): a <relationship> has no name") }
        let place = "relationship \(entityName).\(name)"
        guard let transient = flag(fields, "transient", place),
              let optional = flag(fields, "optional", place),
              let toMany = flag(fields, "toMany", place),
              let ordered = flag(fields, "ordered", place) else { return }
        if transient { return }
        guard let destination = fields["destinationEntity"], !destination.isEmpty else {
            return fail("\(place) has no destinationEntity")
        }
        let inverse = fields["inverseName"].flatMap { $0.isEmpty ? nil : $0 }
        if let inverseEntity = fields["inverseEntity"], !inverseEntity.isEmpty, inverseEntity != destination {
            return fail("\(place): inverseEntity '\(inverseEntity)' is not its destination '\(destination)'")
        }
        var rule = DeleteRule.nullify
        if let ruleName = fields["deletionRule"] {
            guard let parsed = DeleteRule(name: ruleName) else {
                return fail("\(place): unknown deletionRule '\(ruleName)' (Nullify, Cascade, Deny, No Action)")
            }
            rule = parsed
        }
        var minCount = 0
        var maxCount = 0
        if toMany {
            guard let low = count(fields, "minCount", place), let high = count(fields, "maxCount", place) else { return }
            minCount = low
            maxCount = high
        }
        entity?.ownRelationships.append(RelationshipDescription(
            name: name, destination: destination, isToMany: toMany, inverse: inverse, deleteRule: rule,
            isOrdered: ordered, isOptional: optional, minCount: minCount, maxCount: maxCount))
    }

    // MARK: Values

    /// A `YES`/`NO` attribute; absent is NO. nil after reporting an error.
    private func flag(_ fields: [String: String], _ key: String, _ place: String) -> Bool? {
        guard let text = fields[key] else { return false }
        switch text.lowercased() {
        case "yes", "true", "1": return true
        case "no", "false", "0", "": return false
        default:
            fail("\(place): \(key)=\"\(text)\" is not YES or NO")
            return nil
        }
    }

    /// A non-negative count attribute; absent is 0. nil after reporting an error.
    private func count(_ fields: [String: String], _ key: String, _ place: String) -> Int? {
        guard let text = fields[key] else { return 0 }
        guard let value = Int(text), value >= 0, value <= Int(Int32.max) else {
            fail("\(place): \(key)=\"\(text)\" is not a non-negative integer")
            return nil
        }
        return value
    }

    /// A `defaultValueString` as a value of (roughly) the attribute's type; the coercion then
    /// checks ranges and formats.
    static func defaultValue(_ text: String, _ type: AttributeType) -> Value? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            if let i = Int64(trimmed) { return .int(i) }
            if let d = Double(trimmed), d.isFinite { return .double(d) }
            return nil
        case .double, .float:
            guard let d = Double(trimmed) else { return nil }
            return .double(d)
        case .decimal:
            return .string(trimmed)
        case .string, .uri:
            return .string(text)
        case .boolean:
            switch trimmed.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: return nil
            }
        case .date:
            guard let seconds = Double(trimmed), seconds.isFinite else { return nil }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uuid, .binary, .transformable, .undefined:
            return .string(trimmed)
        }
    }

    static func defaultHint(_ type: AttributeType) -> String {
        switch type {
        case .boolean: " (YES or NO)"
        case .date: " (seconds since 2001-01-01 00:00:00 UTC)"
        case .integer16, .integer32, .integer64: " (an integer)"
        case .double, .float, .decimal: " (a number)"
        default: ""
        }
    }
}
