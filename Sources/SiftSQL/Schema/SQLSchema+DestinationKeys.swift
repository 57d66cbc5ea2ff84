import SiftStore

extension SQLSchema {
    /// For a to-one relationship of a database Sift did not create, the destination's attribute
    /// whose column the foreign key refers to (``PersistentStore/destinationKeyAttribute(of:in:)``);
    /// nil in Sift's layout, and for a key that is no attribute's column (a rowid).
    package func destinationKeyAttribute(of relationship: String, in entity: String) -> String? {
        guard !isSiftLayout, let table = tables[entity],
              case .foreignKey(_, _, let key)? = table.relationships[relationship],
              let description = table.entity.relationship(named: relationship), !description.isToMany,
              let destination = tables[description.destination] else { return nil }
        // Attribute names are unique, and so are the columns they read: the first is the one.
        return destination.entity.attributes.first { destination.columns[$0.name] == key }?.name
    }
}
