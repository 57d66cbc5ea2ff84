import SiftEvaluation
import SiftLanguage

/// Fetch results as your own `Decodable` records (GRDB-style): each object decodes from a
/// dictionary of its attributes, its relationships, and `objectID`, its own ID (unless an
/// attribute has that name). A relationship is its destinations' object ID strings (a to-one
/// relationship an ID or nil, a to-many one an array of IDs), or, when the request prefetches
/// it (`relationshipKeyPathsForPrefetching`), the destinations as nested records, decoded the
/// same way (`author.books` nests both steps). Attribute values decode as ``ValueDecoder``
/// decodes them: dates into `Date`, decimals into `Decimal`, and so on.
///
///     struct Note: Decodable { var objectID: String; var title: String; var category: String?; var tags: [String] }
///     let notes = try store.fetch(FetchRequest(statement: "Note SORT BY title"), as: Note.self)
extension PersistentStore {
    /// The objects `request` returns, decoded as `T`. Throws ``StoreError`` for the fetch and
    /// `DecodingError` for an object that does not decode (naming the coding path).
    public func fetch<T: Decodable>(_ request: FetchRequest, as type: T.Type) throws -> [T] {
        let decoder = ValueDecoder()
        let nesting = RecordNesting(request.relationshipKeyPathsForPrefetching)
        var records: [T] = []
        try fetch(request).forEachObject { object in
            records.append(try decoder.decode(type, from: .dictionary(try object.recordValues(nesting: nesting, store: self))))
        }
        return records
    }
}

extension ManagedObject {
    /// The object as a record: its attributes, its relationships as object ID strings (a
    /// to-one relationship an ID or nil, a to-many one an array of IDs), and `objectID` (unless
    /// an attribute has that name). What ``PersistentStore/fetch(_:as:)`` decodes.
    public var recordValues: ValueDictionary {
        var record = attributeValues
        for relationship in relationshipIDs where record[relationship.name] == nil {
            let ids = relationship.ids.map { Value.string($0.rawValue) }
            record[relationship.name] = relationship.isToMany ? .array(ids) : (ids.first ?? .null)
        }
        if record["objectID"] == nil { record["objectID"] = .string(objectID.rawValue) }
        return record
    }

    /// ``recordValues`` with the relationships `nesting` names as nested records of the
    /// destinations `store` holds.
    func recordValues(nesting: RecordNesting, store: some PersistentStore) throws -> ValueDictionary {
        var record = recordValues
        guard !nesting.children.isEmpty else { return record }
        let attributes = attributeValues
        for relationship in relationshipIDs {
            // An attribute of the same name keeps its value.
            guard let inner = nesting.children[relationship.name], attributes[relationship.name] == nil else { continue }
            var destinations: [Value] = []
            for id in relationship.ids {
                guard let object = store.object(with: id) else {
                    throw StoreError(.unknownObject, "\(entityName) '\(objectID)', \(relationship.name): no object '\(id)'",
                                     entity: entityName, objectID: objectID, key: relationship.name)
                }
                destinations.append(.dictionary(try object.recordValues(nesting: inner, store: store)))
            }
            record[relationship.name] = relationship.isToMany ? .array(destinations) : (destinations.first ?? .null)
        }
        return record
    }
}

/// Which relationships become nested records: a tree of the prefetched key paths
/// (`["author", "author.books"]` nests `author`, and `books` inside it).
struct RecordNesting {
    var children: [String: RecordNesting] = [:]

    init(_ keyPaths: [String]) {
        for keyPath in keyPaths { insert(keyPath.split(separator: ".").map(String.init)[...]) }
    }

    private init() {}

    private mutating func insert(_ keys: ArraySlice<String>) {
        guard let first = keys.first else { return }
        var child = children[first] ?? RecordNesting()
        child.insert(keys.dropFirst())
        children[first] = child
    }
}
