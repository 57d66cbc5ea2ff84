import SiftSQL
import SiftStore

/// A Core Data store that tracks persistent history: Core Data records each save in
/// `ATRANSACTION` and `ACHANGE`, and apps read that record to follow changes made elsewhere
/// (CloudKit mirroring, widgets, extensions). Sift does not write it, so its changes are
/// invisible to such readers: said after each change (docs/COREDATA-STORES.md, "Not yet").
extension SQLiteStore: ChangeCaveatReportingStore {
    public var changeCaveats: [String] {
        guard let coreData, CoreDataHistory.isKept(in: coreData.schema) else { return [] }
        return ["the store keeps Core Data's persistent history (ATRANSACTION, ACHANGE), which Sift does not write: "
                + "an app that follows the history (CloudKit sync, widgets, extensions) will not see this change"]
    }
}
