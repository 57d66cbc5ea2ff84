/// The functions a format string may call (LANGUAGE.md §6), by full selector and arity.
///
/// A call may be written with or without the trailing colons (`sum(x)`, `sum:(x)`,
/// `add:to:(1, 2)`, `add:to(1, 2)`); names match case-insensitively. The AST and the
/// canonical form always carry the full selector.
public enum FunctionCatalog {
    public struct Function: Sendable, Hashable {
        /// The full selector, e.g. `add:to:`; `now` for a function of no arguments.
        public let selector: String
        public let arity: Int
    }

    /// Every known function.
    public static let all: [Function] = [
        ("sum:", 1), ("count:", 1), ("min:", 1), ("max:", 1), ("average:", 1), ("median:", 1),
        ("mode:", 1), ("stddev:", 1),
        ("add:to:", 2), ("from:subtract:", 2), ("multiply:by:", 2), ("divide:by:", 2),
        ("modulus:by:", 2), ("raise:toPower:", 2),
        ("sqrt:", 1), ("log:", 1), ("ln:", 1), ("exp:", 1), ("floor:", 1), ("ceiling:", 1),
        ("abs:", 1), ("trunc:", 1),
        ("uppercase:", 1), ("lowercase:", 1), ("canonical:", 1),
        ("now", 0), ("random", 0), ("random:", 1),
        ("bitwiseAnd:with:", 2), ("bitwiseOr:with:", 2), ("bitwiseXor:with:", 2),
        ("leftshift:by:", 2), ("rightshift:by:", 2), ("onesComplement:", 1),
        ("noindex:", 1),
    ].map { Function(selector: $0.0, arity: $0.1) }

    /// Each function's selector without trailing colons, lower-cased, as bytes (`add:to`, `sum`),
    /// for a lookup that neither allocates nor hashes.
    private static let keys: [(key: [UInt8], function: Function)] = all.map { (Array(key($0.selector).utf8), $0) }

    static func key(_ name: String) -> String {
        var name = Substring(name)
        while name.hasSuffix(":") { name = name.dropLast() }
        return name.lowercased()
    }

    /// The functions spelt `name` (any of them, whatever their arity).
    static func candidates(named name: String) -> [Function] {
        var bytes = Array(name.utf8)[...]
        while bytes.last == UInt8(ascii: ":") { bytes.removeLast() }
        return keys.filter { entry in
            entry.key.count == bytes.count && zip(entry.key, bytes).allSatisfy { $0 == ($1 >= 0x41 && $1 <= 0x5A ? $1 | 0x20 : $1) }
        }.map(\.function)
    }

    /// The function spelt `name` taking `arity` arguments.
    public static func lookup(_ name: String, arity: Int) -> Function? {
        candidates(named: name).first { $0.arity == arity }
    }

    /// The names to list in "unknown function" errors.
    static let displayNames: [String] = all.map { $0.selector.hasSuffix(":") ? String($0.selector.dropLast()) : $0.selector }
        .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }

    /// Selectors `FUNCTION(receiver, 'selector', ...)` can evaluate: the catalog's selectors.
    public static func isKnownSelector(_ selector: String) -> Bool {
        all.contains { $0.selector == selector }
    }
}

/// The type names `CAST(x, 'Type')` accepts.
///
/// LANGUAGE.md names NSNumber, NSString and NSDate. NSDecimalNumber, NSData and NSUUID are
/// added so that every constant kind has a canonical spelling: a decimal, data or UUID argument
/// prints as `CAST("1.5", "NSDecimalNumber")`, `CAST("<base64>", "NSData")`,
/// `CAST("<uuid>", "NSUUID")` and reads back as the same constant. NSManagedObjectID names a
/// stored object by its ID: `parent == CAST("R", "NSManagedObjectID")`.
public enum CastType {
    public static let all = ["NSNumber", "NSString", "NSDate", "NSDecimalNumber", "NSData", "NSUUID", "NSManagedObjectID"]
}
