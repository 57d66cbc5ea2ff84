import SiftSQL
import SiftStore

extension PostgreSQLStore {
    /// The destination's attribute a to-one relationship's foreign key refers to, in a
    /// database Sift did not create (its referenced primary key column); nil in a store Sift
    /// made.
    public func destinationKeyAttribute(of relationship: String, in entity: String) -> String? {
        schema.destinationKeyAttribute(of: relationship, in: entity)
    }
}
