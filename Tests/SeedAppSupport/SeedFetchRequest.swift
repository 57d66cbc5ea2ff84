import SiftEvaluation
import SiftStore

/// The example fetches of the seed apps (Examples/<App>/fetches.json), as the tests that run
/// them on each store read them (SeedFetchTests, the PostgreSQL store's SeedAppTests).
public enum SeedFetchRequest {
    /// The fetch request a fetch describes: a statement with its arguments and variables
    /// converted by JSONArguments, or a JSON request (its arguments and variables added).
    public static func request(_ spec: ValueDictionary) throws -> FetchRequest {
        var arguments: [Any?] = []
        var argumentValues: [Value] = []
        if case .array(let items)? = spec["arguments"] {
            argumentValues = items
            for item in items { arguments.append(try JSONArguments.argument(item)) }
        }
        var variables: [String: Any?] = [:]
        var variableValues = ValueDictionary()
        if case .dictionary(let d)? = spec["variables"] {
            variableValues = d
            for (name, item) in d.pairs { variables[name] = try JSONArguments.argument(item) }
        }
        switch (spec["statement"], spec["request"]) {
        case (.string(let statement)?, nil):
            return try FetchRequest(statement: statement, arguments: arguments, variables: variables)
        case (nil, .dictionary(var fields)?):
            if !argumentValues.isEmpty { fields["arguments"] = .array(argumentValues) }
            if variableValues.count > 0 { fields["variables"] = .dictionary(variableValues) }
            return try FetchRequest(jsonValue: .dictionary(fields))
        default:
            throw StoreError(.invalidRequest, "a fetch needs exactly one of \"statement\" and \"request\"")
        }
    }
}
