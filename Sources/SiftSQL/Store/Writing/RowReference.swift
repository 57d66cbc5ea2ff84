/// An object of a SQLite store as the store rules see it: its row key (`"_pk"`, unique across
/// every table and given in insertion order) and its entity's position in the model. Two
/// references are the same object when their keys are; they order by key.
struct RowReference: Hashable, Comparable, Sendable {
    let key: Int64
    let entity: Int

    static func == (a: RowReference, b: RowReference) -> Bool { a.key == b.key }
    static func < (a: RowReference, b: RowReference) -> Bool { a.key < b.key }
    func hash(into hasher: inout Hasher) { hasher.combine(key) }
}
