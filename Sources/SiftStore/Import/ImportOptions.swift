/// How an import reads its data, beyond the model.
public struct ImportOptions: Sendable, Hashable {
    /// The entity of JSON Lines records that do not name one with `"@entity"`.
    public var entity: String?
    /// How Date attributes written as text are read; nil: ISO 8601.
    public var dateFormat: ImportDateFormat?

    public init(entity: String? = nil, dateFormat: ImportDateFormat? = nil) {
        self.entity = entity
        self.dateFormat = dateFormat
    }
}
