import SiftLanguage

/// Your types in, your types out: filtering, sorting and sectioning ``PredicateQueryable``
/// values gives the values themselves. Key paths are checked against the type's keys first
/// (``PredicateQueryable/checkKeyPaths(of:)``), so a misspelt key throws instead of matching
/// nothing.
///
///     let adults = try people.filter("age >= %@", 18)                     // [Person]
///     let ordered = try adults.sorted(by: "city, age DESC")               // [Person]
///     for section in try ordered.sectioned(by: "city") { print(section.name, section.objects.count) }
extension Sequence where Element: PredicateQueryable {
    /// The values that satisfy `predicate`, in order.
    public func filter(_ predicate: CompiledPredicate) throws(EvaluationError) -> [Element] {
        try predicate.filter(Array(self))
    }

    /// The values that satisfy the predicate `format` (with `%@`/`%K` bound from `arguments`),
    /// in order. Throws ``ParseError`` or ``EvaluationError``.
    public func filter(_ format: String, _ arguments: Any?...) throws -> [Element] {
        try CompiledPredicate(format: format, arguments: arguments).filter(Array(self))
    }

    /// The values sorted by `keys` (ties keep their order; see ``Sorting``).
    public func sorted(by keys: [SortKey]) throws(EvaluationError) -> [Element] {
        for key in keys { try Element.checkKeyPath(key.keyPath) }
        let elements = Array(self)
        let order = try Sorting.sortedIndices(elements.map(\.predicateValue), by: keys)
        return order.map { elements[$0] }
    }

    /// The values sorted by a specification such as `"city, age DESC, name USING
    /// localizedStandardCompare"` (``Sorting/parseSortKeys(_:)``). Throws
    /// ``SortSpecificationError`` or ``EvaluationError``.
    public func sorted(by specification: String) throws -> [Element] {
        try sorted(by: Sorting.parseSortKeys(specification))
    }

    /// The values grouped by `keyPath`, in the order of each section's first value (sort by
    /// the section key first to keep sections contiguous; see ``SectionedResults``).
    public func sectioned(by keyPath: String) throws(EvaluationError) -> [ObjectSection<Element>] {
        try Element.checkKeyPath(keyPath)
        let elements = Array(self)
        let results = try SectionedResults(elements.map(\.predicateValue), order: Array(elements.indices), sectionKeyPath: keyPath)
        return results.sections.map { section in
            ObjectSection(name: section.name, indexTitle: section.indexTitle, objects: section.objectIndices.map { elements[$0] })
        }
    }
}

extension CompiledPredicate {
    /// The values that satisfy the predicate, in order, after checking its key paths against
    /// the type's keys (an unknown key throws ``EvaluationError/Code/unknownKey``).
    public func filter<T: PredicateQueryable>(_ objects: [T]) throws(EvaluationError) -> [T] {
        try T.checkKeyPaths(of: predicate)
        var result: [T] = []
        for object in objects where try evaluate(object) { result.append(object) }
        return result
    }
}
