import SiftEvaluation
import SiftLanguage

/// What a fetch returns (Core Data's `NSFetchRequestResultType`).
public enum FetchResultType: String, Sendable, Hashable, CaseIterable {
    case objects
    case dictionaries
    case count
    case objectIDs
}

/// A property of a dictionary result: an attribute, a to-one key path (`category.name`), or a
/// named expression (`items.@sum.price AS total`, `count:(title) AS n`).
public struct FetchedProperty: Sendable, Hashable {
    public var name: String
    public var expression: ExpressionNode

    public init(name: String, expression: ExpressionNode) {
        self.name = name
        self.expression = expression
    }

    /// A key path or expression as text, optionally followed by `AS name`.
    public init(_ text: String) throws {
        let statement = try FetchStatement(parsing: "SELECT \(text) FROM _")
        guard statement.properties.count == 1, let item = statement.properties.first else {
            throw StoreError(.invalidRequest, "'\(text)' is \(statement.properties.count) properties, not one")
        }
        self.init(name: item.name, expression: item.expression)
    }
}

/// A fetch (Core Data's NSFetchRequest, FETCH.md §3): the entity, a predicate, sort
/// descriptors, limit and offset, batch size, result type, properties, grouping.
///
///     var request = try FetchRequest(entityName: "Note", predicate: "title BEGINSWITH[cd] %@", arguments: ["my"])
///     request.sortDescriptors = [SortKey("updatedAt", ascending: false)]
///     for note in try store.fetch(request) { print(note[attribute: "title"] ?? .null) }
public struct FetchRequest: Sendable, Hashable {
    public var entityName: String
    public var predicate: PredicateNode?
    public var sortDescriptors: [SortKey]
    /// 0 = no limit.
    public var fetchLimit: Int
    public var fetchOffset: Int
    /// Objects are materialised this many at a time while iterating; 0 = all at once.
    public var fetchBatchSize: Int
    public var resultType: FetchResultType
    /// For dictionary results: the properties each dictionary has (all attributes when empty).
    public var propertiesToFetch: [FetchedProperty]
    public var returnsDistinctResults: Bool
    public var propertiesToGroupBy: [FetchedProperty]
    /// Sees each group's dictionary: group-by values and aggregates, by name.
    public var havingPredicate: PredicateNode?
    /// Whether objects of sub-entities are included (the default).
    public var includesSubentities: Bool
    /// Groups the results into sections (NSFetchedResultsController's section key path).
    public var sectionNameKeyPath: String?
    /// Relationships to load with the results (the in-memory stores have everything loaded).
    public var relationshipKeyPathsForPrefetching: [String]
    /// To-many relationships of the entity whose destination counts are loaded with the
    /// results, a batch at a time, for ``ManagedObject/destinationCount(of:)`` (a Sift
    /// addition; the in-memory stores have everything loaded). The SQLite store reads each
    /// count with one grouped query per batch instead of reading every object's destinations.
    public var relationshipCountsForPrefetching: [String]

    public init(entityName: String, predicate: PredicateNode? = nil, sortDescriptors: [SortKey] = [],
                fetchLimit: Int = 0, fetchOffset: Int = 0, fetchBatchSize: Int = 0, resultType: FetchResultType = .objects) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = fetchBatchSize
        self.resultType = resultType
        self.propertiesToFetch = []
        self.returnsDistinctResults = false
        self.propertiesToGroupBy = []
        self.havingPredicate = nil
        self.includesSubentities = true
        self.sectionNameKeyPath = nil
        self.relationshipKeyPathsForPrefetching = []
        self.relationshipCountsForPrefetching = []
    }

    /// A request whose predicate is parsed from a format string: `%@`/`%K` bound from
    /// `arguments`, `$variables` from `variables`.
    public init(entityName: String, predicate format: String, arguments: [Any?] = [], variables: [String: Any?] = [:]) throws {
        var predicate = try PredicateNode(format: format, arguments: arguments)
        if !variables.isEmpty { predicate = try predicate.substituting(variables: variables) }
        self.init(entityName: entityName, predicate: predicate)
    }

    /// The request a statement stands for (each statement is exactly one request).
    public init(_ statement: FetchStatement) {
        self.init(entityName: statement.entityName, predicate: statement.predicate)
        // Key paths as Core Data names them: `SORT BY #2B` sorts by the key 2B.
        sortDescriptors = statement.sort.map { item in
            SortKey(item.requestKeyPath, ascending: item.ascending,
                    comparator: item.comparator.flatMap(StringComparator.init(rawValue:)) ?? .compare)
        }
        fetchLimit = statement.limit ?? 0
        fetchOffset = statement.offset ?? 0
        sectionNameKeyPath = statement.requestSectionKeyPath
        switch statement.kind {
        case .fetch: resultType = .objects
        case .count: resultType = .count
        case .select:
            resultType = .dictionaries
            propertiesToFetch = statement.properties.map { FetchedProperty(name: $0.name, expression: $0.expression) }
            returnsDistinctResults = statement.distinct
            propertiesToGroupBy = statement.groupBy.map { FetchedProperty(name: FetchStatement.resultName(of: $0), expression: $0) }
            havingPredicate = statement.having
        }
    }

    /// Parses a fetch statement (`Note WHERE title BEGINSWITH[cd] %@ SORT BY updatedAt DESC`).
    public init(statement text: String, arguments: [Any?] = [], variables: [String: Any?] = [:]) throws {
        var statement = try FetchStatement(parsing: text, arguments: arguments)
        if !variables.isEmpty {
            statement.predicate = try statement.predicate?.substituting(variables: variables)
            statement.having = try statement.having?.substituting(variables: variables)
        }
        self.init(statement)
    }
}

extension FetchRequest {
    /// The positions of `count` results that offset and limit keep: from `fetchOffset` (or the
    /// end), at most `fetchLimit` of them (0: all the rest). Any non-negative offset and limit,
    /// up to `Int.max` each, give a range (they are never added).
    package func page(of count: Int) -> Range<Int> {
        let start = min(max(fetchOffset, 0), count)
        let remaining = count - start
        let end = fetchLimit > 0 ? start + min(remaining, fetchLimit) : count
        return start..<end
    }
}
