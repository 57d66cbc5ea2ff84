import Foundation
import SiftEvaluation
import SiftLanguage

/// The JSON form of a fetch request (docs/FETCH-REQUEST-JSON.md):
///
///     {"entityName": "Note", "predicate": "title BEGINSWITH[cd] %@", "arguments": ["my"],
///      "variables": {"x": 1}, "sortDescriptors": [{"key": "updatedAt", "ascending": false,
///      "comparator": "compare"}], "fetchLimit": 0, "fetchOffset": 0, "fetchBatchSize": 0,
///      "sectionNameKeyPath": "category.name", "resultType": "objects",
///      "propertiesToFetch": ["title", "items.@sum.price AS total"], "returnsDistinctResults": false,
///      "propertiesToGroupBy": ["category.name"], "havingPredicate": "n > 1",
///      "includesSubentities": true}
///
/// Only `entityName` is required. Arguments use the JSON argument forms of ``JSONArguments``.
extension FetchRequest {
    public init(json data: Data) throws {
        let value: Value
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(data)
        } catch {
            throw StoreError(.invalidRequest, "fetch request: \(error)")
        }
        try self.init(jsonValue: value)
    }

    public init(jsonValue value: Value) throws {
        func fail(_ message: String) -> StoreError { StoreError(.invalidRequest, "fetch request: \(message)") }
        guard case .dictionary(let fields) = value else { throw fail("expected a JSON object, not \(value.kindName)") }
        let known = ["entityName", "predicate", "arguments", "variables", "sortDescriptors", "fetchLimit", "fetchOffset",
                     "fetchBatchSize", "sectionNameKeyPath", "resultType", "propertiesToFetch", "returnsDistinctResults",
                     "propertiesToGroupBy", "havingPredicate", "includesSubentities", "relationshipKeyPathsForPrefetching",
                     "relationshipCountsForPrefetching"]
        for key in fields.keys where !known.contains(key) {
            var message = "unknown field \"\(key)\""
            if let s = Suggestions.closest(to: key, in: known) { message += "; did you mean \"\(s)\"?" }
            throw fail(message)
        }
        func string(_ key: String) throws -> String? {
            switch fields[key] {
            case nil, .null?: return nil
            case .string(let s)?: return s
            case let other?: throw fail("\"\(key)\" must be a string, not \(other.kindName)")
            }
        }
        func int(_ key: String) throws -> Int {
            switch fields[key] {
            case nil, .null?: return 0
            case .int(let i)? where i >= 0: return Int(i)
            case let other?: throw fail("\"\(key)\" must be a non-negative integer, not \(ValueText.text(other))")
            }
        }
        func bool(_ key: String, _ fallback: Bool) throws -> Bool {
            switch fields[key] {
            case nil, .null?: return fallback
            case .bool(let b)?: return b
            case let other?: throw fail("\"\(key)\" must be true or false, not \(other.kindName)")
            }
        }
        func strings(_ key: String) throws -> [String] {
            switch fields[key] {
            case nil, .null?: return []
            case .array(let items)?:
                return try items.map { item in
                    guard case .string(let s) = item else { throw fail("\"\(key)\" must be an array of strings") }
                    return s
                }
            case .string(let s)?: return [s]
            case let other?: throw fail("\"\(key)\" must be an array of strings, not \(other.kindName)")
            }
        }
        guard let entityName = try string("entityName") else { throw fail("\"entityName\" is required") }
        var arguments: [Any?] = []
        if case .array(let items)? = fields["arguments"] {
            for item in items { arguments.append(try JSONArguments.argument(item)) }
        } else if let other = fields["arguments"], !other.isNull {
            throw fail("\"arguments\" must be an array")
        }
        var variables: [String: Any?] = [:]
        if case .dictionary(let d)? = fields["variables"] {
            for (name, item) in d.pairs { variables[name] = try JSONArguments.argument(item) }
        } else if let other = fields["variables"], !other.isNull {
            throw fail("\"variables\" must be an object")
        }
        if let format = try string("predicate") {
            try self.init(entityName: entityName, predicate: format, arguments: arguments, variables: variables)
        } else {
            guard arguments.isEmpty else { throw fail("\"arguments\" given without a \"predicate\"") }
            self.init(entityName: entityName)
        }
        switch fields["sortDescriptors"] {
        case nil, .null?: break
        case .array(let items)?:
            sortDescriptors = try items.map { item in
                switch item {
                case .string(let text):
                    return SortKey(text)
                case .dictionary(let d):
                    guard case .string(let key)? = d["key"] else { throw fail("a sort descriptor needs a \"key\"") }
                    var ascending = true
                    if case .bool(let b)? = d["ascending"] { ascending = b }
                    var comparator = StringComparator.compare
                    if case .string(let name)? = d["comparator"] {
                        guard let c = StringComparator(rawValue: name) else {
                            throw fail("unknown comparator '\(name)' (\(StringComparator.allCases.map(\.rawValue).joined(separator: ", ")))")
                        }
                        comparator = c
                    }
                    return SortKey(key, ascending: ascending, comparator: comparator)
                default:
                    throw fail("a sort descriptor is {\"key\", \"ascending\", \"comparator\"}")
                }
            }
        case let other?: throw fail("\"sortDescriptors\" must be an array, not \(other.kindName)")
        }
        fetchLimit = try int("fetchLimit")
        fetchOffset = try int("fetchOffset")
        fetchBatchSize = try int("fetchBatchSize")
        sectionNameKeyPath = try string("sectionNameKeyPath")
        if let type = try string("resultType") {
            guard let parsed = FetchResultType(rawValue: type) else {
                throw fail("unknown resultType '\(type)' (\(FetchResultType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            resultType = parsed
        }
        propertiesToFetch = try strings("propertiesToFetch").map { try FetchedProperty($0) }
        propertiesToGroupBy = try strings("propertiesToGroupBy").map { try FetchedProperty($0) }
        returnsDistinctResults = try bool("returnsDistinctResults", false)
        includesSubentities = try bool("includesSubentities", true)
        relationshipKeyPathsForPrefetching = try strings("relationshipKeyPathsForPrefetching")
        relationshipCountsForPrefetching = try strings("relationshipCountsForPrefetching")
        if let having = try string("havingPredicate") {
            havingPredicate = try PredicateNode(format: having, arguments: [])
        }
    }
}
