/// How an import reads its data, beyond the model.
public struct ImportOptions: Sendable {
    /// The entity of JSON Lines records that do not name one with `"@entity"`.
    public var entity: String?
    /// How Date attributes written as text are read; nil: ISO 8601.
    public var dateFormat: ImportDateFormat?
    /// Entities to add to the store's model (a ``ModelGrowingStore``) before the rows go in, as
    /// part of the import: kept if it is, undone if it fails.
    public var newEntities: [EntityDescription]
    /// The threads that read and check JSON Lines read from a file descriptor
    /// (``StoreImporter/importJSONLines(fileDescriptor:into:options:progress:)``); 1 (the
    /// default): one thread beside the one inserting the rows. `sift import --jobs`.
    public var jobs: Int

    public init(entity: String? = nil, dateFormat: ImportDateFormat? = nil, newEntities: [EntityDescription] = [], jobs: Int = 1) {
        self.entity = entity
        self.dateFormat = dateFormat
        self.newEntities = newEntities
        self.jobs = jobs
    }
}
