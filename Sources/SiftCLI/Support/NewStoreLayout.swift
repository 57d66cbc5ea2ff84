/// `sift import --layout`: the tables a new SQLite store is made with.
enum NewStoreLayout: String, CaseIterable {
    /// Sift's own layout (the default).
    case sift
    /// Core Data's layout (`Z<ENTITY>` tables, `Z_PRIMARYKEY`, `Z_METADATA`), which Core Data
    /// opens with the same model.
    case coredata
}
