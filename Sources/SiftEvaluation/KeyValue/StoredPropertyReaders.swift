import Foundation

/// Readers of a ``PredicateQueryable`` type's stored properties from a pointer to the root,
/// made once per key when the type lists its keys.
///
/// `QueryableKey.key(_:)` is generic and not specialised for the caller's types, so a reader
/// that converts through `predicateValue` looks up the property type's witness on every read;
/// the commonest property types get readers of their own, which give the very same values.
enum StoredPropertyReaders {
    /// The stored property of type `V` at `offset`, as a ``Value``.
    static func storedReader<V: PredicateValueConvertible>(of type: V.Type, at offset: Int) -> QueryableKeyTable.StoredReader {
        if V.self == Int.self { return { (root: UnsafeRawPointer) -> Value in .int(Int64(root.load(fromByteOffset: offset, as: Int.self))) } }
        if V.self == String.self { return { (root: UnsafeRawPointer) -> Value in .string(root.load(fromByteOffset: offset, as: String.self)) } }
        if V.self == Double.self { return { (root: UnsafeRawPointer) -> Value in .double(root.load(fromByteOffset: offset, as: Double.self)) } }
        if V.self == Bool.self { return { (root: UnsafeRawPointer) -> Value in .bool(root.load(fromByteOffset: offset, as: Bool.self)) } }
        return { (root: UnsafeRawPointer) -> Value in root.load(fromByteOffset: offset, as: V.self).predicateValue }
    }

    /// For a stored array or set property of type `V` at `offset`: whether some element, as the
    /// ``Value`` the property's value holds it, satisfies a test — the elements visited in place,
    /// without building that array. Nil for other types.
    static func visitor<V: PredicateValueConvertible>(of type: V.Type, at offset: Int) -> QueryableKeyTable.ElementVisitor? {
        if V.self == [String].self {
            return { (root: UnsafeRawPointer, body: (Value) throws(EvaluationError) -> Bool) throws(EvaluationError) -> Bool in
                for element in root.load(fromByteOffset: offset, as: [String].self) where try body(.string(element)) { return true }
                return false
            }
        }
        guard let collection = V.self as? any VisitableElements.Type else { return nil }
        return { (root: UnsafeRawPointer, body: (Value) throws(EvaluationError) -> Bool) throws(EvaluationError) -> Bool in
            try collection.someElement(at: root + offset, where: body)
        }
    }
}

/// An array or set whose elements a to-many comparison visits in place.
protocol VisitableElements: SendableMetatype {
    /// Whether some element's ``Value`` (as in the collection's `predicateValue`, in the same
    /// order) satisfies `body`; the collection is at `address`.
    static func someElement(at address: UnsafeRawPointer, where body: (Value) throws(EvaluationError) -> Bool) throws(EvaluationError) -> Bool
}

extension Array: VisitableElements where Element: PredicateValueConvertible {
    static func someElement(at address: UnsafeRawPointer, where body: (SiftEvaluation.Value) throws(EvaluationError) -> Bool) throws(EvaluationError) -> Bool {
        for element in address.load(as: [Element].self) where try body(element.predicateValue) { return true }
        return false
    }
}

extension Set: VisitableElements where Element: PredicateValueConvertible {
    static func someElement(at address: UnsafeRawPointer, where body: (SiftEvaluation.Value) throws(EvaluationError) -> Bool) throws(EvaluationError) -> Bool {
        for element in address.load(as: Set<Element>.self) where try body(element.predicateValue) { return true }
        return false
    }
}
