/// Why Core Data's model could not be read: a damaged compressed cache, an archive that is not a
/// keyed archive of a model, or a model whose parts do not fit together.
public struct CoreDataModelError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, in words (where in the input, when known).
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
