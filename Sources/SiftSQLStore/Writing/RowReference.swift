import SiftSQL

/// An object of a SQLite store as the store rules see it: its row key (`"_pk"`, unique across
/// every table and given in insertion order) and its entity's position in the model. Two
/// references are the same object when their keys are; they order by key. (The PostgreSQL
/// store, with the same layout, uses it too.)
package struct RowReference: Hashable, Comparable, Sendable {
    package let key: Int64
    package let entity: Int

    package init(key: Int64, entity: Int) {
        self.key = key
        self.entity = entity
    }

    package static func == (a: RowReference, b: RowReference) -> Bool { a.key == b.key }
    package static func < (a: RowReference, b: RowReference) -> Bool { a.key < b.key }
    package func hash(into hasher: inout Hasher) { hasher.combine(key) }
}
