/// The functions a format string may call (LANGUAGE.md §6), by full selector and arity.
///
/// A call may be written with or without the trailing colons (`sum(x)`, `sum:(x)`,
/// `add:to:(1, 2)`, `add:to(1, 2)`); names match case-insensitively. The AST and the
/// canonical form always carry the full selector.
public enum FunctionCatalog {
    /// One function of the catalogue: a ``BuiltinFunction`` with its selector and arity.
    public struct Function: Sendable, Hashable {
        /// The function this entry describes.
        public let builtin: BuiltinFunction
        /// The full selector, e.g. `add:to:`; `now` for a function of no arguments.
        public var selector: String { builtin.selector }
        /// How many arguments the function takes.
        public var arity: Int { builtin.arity }

        /// The catalogue's entry for `builtin`.
        public init(_ builtin: BuiltinFunction) {
            self.builtin = builtin
        }
    }

    /// Every known function, in ``BuiltinFunction``'s order.
    public static let all: [Function] = BuiltinFunction.allCases.map(Function.init)

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
    static let displayNames: [String] = all.map(\.builtin.displayName)
        .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }

    /// Selectors `FUNCTION(receiver, 'selector', ...)` can evaluate: the catalog's selectors.
    public static func isKnownSelector(_ selector: String) -> Bool {
        BuiltinFunction(selector: selector) != nil
    }
}

/// The type names `CAST(x, 'Type')` accepts.
///
/// LANGUAGE.md names NSNumber, NSString and NSDate. NSDecimalNumber, NSData and NSUUID are
/// added so that every constant kind has a canonical spelling: a decimal, data or UUID argument
/// prints as `CAST("1.5", "NSDecimalNumber")`, `CAST("<base64>", "NSData")`,
/// `CAST("<uuid>", "NSUUID")` and reads back as the same constant. NSManagedObjectID names a
/// stored object by its ID: `parent == CAST("R", "NSManagedObjectID")`.
///
/// The evaluator, the typing and the SQL compiler resolve a cast's type name to a case and
/// switch over it, so a new type does not compile until each of them handles it.
public enum CastType: String, Sendable, CaseIterable {
    case number = "NSNumber"
    case string = "NSString"
    case date = "NSDate"
    case decimalNumber = "NSDecimalNumber"
    case data = "NSData"
    case uuid = "NSUUID"
    case managedObjectID = "NSManagedObjectID"

    /// The type named exactly `name` (`NSDate`; the parser has already given it this spelling).
    public init?(name: String) { self.init(rawValue: name) }

    /// The name, as the canonical form spells it: `NSDate`.
    public var name: String { rawValue }

    /// Every type's name, in declaration order.
    public static let all: [String] = allCases.map(\.name)
}
