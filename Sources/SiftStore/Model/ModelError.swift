/// A model that cannot be used, or a model file that cannot be read: the message names the
/// entity and property (and the file and line where there is one).
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
