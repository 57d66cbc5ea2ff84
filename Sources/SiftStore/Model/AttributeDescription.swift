import SiftEvaluation

/// An attribute of an entity: a name, a type, whether it may be nil, the value an object gets
/// when it is inserted without one, and whether a store keeps it ready for `[c]`/`[cd]` search.
public struct AttributeDescription: Sendable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    /// The value given on insert when none is; already converted to `type`'s stored form.
    public var defaultValue: Value?
    /// Whether the SQLite store keeps the attribute's `[cd]`- and `[c]`-folded text beside it,
    /// indexed, so `==`, `IN`, `BEGINSWITH`, `CONTAINS` and `ENDSWITH` with those options read the
    /// folded text instead of folding every row (Core Data has no such flag; Sift does). String
    /// attributes only; it changes no answer, only how fast a store finds it.
    public var isSearchable: Bool

    public init(name: String, type: AttributeType, isOptional: Bool = true, defaultValue: Value? = nil, isSearchable: Bool = false) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isSearchable = isSearchable
    }
}
