/// What deleting an object does to the objects a relationship points at (FETCH.md §1).
public enum DeleteRule: String, CaseIterable, Sendable, Codable {
    /// Remove the deleted object from the destinations' inverse relationship.
    case nullify
    /// Delete the destinations too.
    case cascade
    /// Refuse to delete while the relationship has destinations.
    case deny
    /// Do nothing to the destinations (their inverse may then point at a deleted object; Sift
    /// drops such dangling references).
    case noAction

    /// Reads `nullify`, `cascade`, `deny`, `noAction` and Xcode's `deletionRule` spellings
    /// (`Nullify`, `Cascade`, `Deny`, `No Action`).
    public init?(name: String) {
        switch name.lowercased().replacingOccurrences(of: " ", with: "") {
        case "nullify": self = .nullify
        case "cascade": self = .cascade
        case "deny": self = .deny
        case "noaction": self = .noAction
        default: return nil
        }
    }
}
