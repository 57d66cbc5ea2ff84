import SiftEvaluation

/// An attribute of an entity: a name, a type, whether it may be nil, and the value an object
/// gets when it is inserted without one.
public struct AttributeDescription: Sendable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    /// The value given on insert when none is; already converted to `type`'s stored form.
    public var defaultValue: Value?

    public init(name: String, type: AttributeType, isOptional: Bool = true, defaultValue: Value? = nil) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
    }
}
