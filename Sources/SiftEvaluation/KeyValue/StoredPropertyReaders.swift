import Foundation

/// Readers of a ``PredicateQueryable`` type's stored properties from a pointer to the root,
/// made once per key when the type lists its keys.
///
/// `QueryableKey.key(_:)` is generic and not specialised for the caller's types, so a reader
/// that converts through `predicateValue` looks up the property type's witness on every read;
/// the commonest property types get readers of their own, which give the very same values.
enum StoredPropertyReaders {
    /// How a ``KeyedPlan`` reads a stored property of the commonest types: from its offset,
    /// with no closure to call (calling a reader closure held in the key table retains and
    /// releases its context on every evaluation). `.other` keys go through the table's readers.
    enum Field: Sendable {
        case int(offset: Int)
        case double(offset: Int)
        case string(offset: Int)
        case strings(offset: Int)
        case other
    }

    /// The field of a stored property of type `V` at `offset`.
    static func field<V: PredicateValueConvertible>(of type: V.Type, at offset: Int) -> Field {
        if V.self == Int.self { return .int(offset: offset) }
        if V.self == Double.self { return .double(offset: offset) }
        if V.self == String.self { return .string(offset: offset) }
        if V.self == [String].self { return .strings(offset: offset) }
        return .other
    }

    /// The stored property of type `V` at `offset`, as a ``Value``.
    static func storedReader<V: PredicateValueConvertible>(of type: V.Type, at offset: Int) -> QueryableKeyTable.StoredReader {
        if V.self == Int.self { return { (root: UnsafeRawPointer) -> Value in .int(Int64(root.load(fromByteOffset: offset, as: Int.self))) } }
        if V.self == String.self { return { (root: UnsafeRawPointer) -> Value in .string(root.load(fromByteOffset: offset, as: String.self)) } }
        if V.self == Double.self { return { (root: UnsafeRawPointer) -> Value in .double(root.load(fromByteOffset: offset, as: Double.self)) } }
        if V.self == Bool.self { return { (root: UnsafeRawPointer) -> Value in .bool(root.load(fromByteOffset: offset, as: Bool.self)) } }
        return { (root: UnsafeRawPointer) -> Value in root.load(fromByteOffset: offset, as: V.self).predicateValue }
    }

    /// For a stored array or set property of type `V` at `offset`: whether it satisfies a to-many
    /// comparison, its elements (as the ``Value``s the property's value holds) visited in place,
    /// without building that array. Nil for other types.
    static func visitor<V: PredicateValueConvertible>(of type: V.Type, at offset: Int) -> QueryableKeyTable.ElementVisitor? {
        if V.self == [String].self {
            return { (root: UnsafeRawPointer, comparison: KeyComparison) throws(EvaluationError) -> Bool in
                try comparison.holds(over: root.load(fromByteOffset: offset, as: [String].self)) { Value.string($0) }
            }
        }
        guard let collection = V.self as? any VisitableElements.Type else { return nil }
        return { (root: UnsafeRawPointer, comparison: KeyComparison) throws(EvaluationError) -> Bool in
            try collection.holds(comparison, at: root + offset)
        }
    }
}

/// An array or set whose elements a to-many comparison visits in place.
protocol VisitableElements: SendableMetatype {
    /// Whether the collection at `address` satisfies the to-many comparison, its elements read as
    /// in the collection's `predicateValue` (in the same order).
    static func holds(_ comparison: KeyComparison, at address: UnsafeRawPointer) throws(EvaluationError) -> Bool
}

extension Array: VisitableElements where Element: PredicateValueConvertible {
    static func holds(_ comparison: KeyComparison, at address: UnsafeRawPointer) throws(EvaluationError) -> Bool {
        try comparison.holds(over: address.load(as: [Element].self)) { $0.predicateValue }
    }
}

extension Set: VisitableElements where Element: PredicateValueConvertible {
    static func holds(_ comparison: KeyComparison, at address: UnsafeRawPointer) throws(EvaluationError) -> Bool {
        try comparison.holds(over: address.load(as: Set<Element>.self)) { $0.predicateValue }
    }
}
