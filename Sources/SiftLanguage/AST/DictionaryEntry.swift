/// One entry of a dictionary expression (``ExpressionNode/Kind/dictionary(_:)``): a key and
/// the expression of its value.
public struct DictionaryEntry: Sendable, Hashable {
    public var key: String
    public var value: ExpressionNode

    public init(_ key: String, _ value: ExpressionNode) {
        self.key = key
        self.value = value
    }
}
