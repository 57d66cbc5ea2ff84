/// A ``PredicateQueryable`` value evaluated in place by a ``KeyedPlan``: its keys are read from
/// its address (the readers `QueryableObject` uses), and an array or set property's elements
/// are visited without building the array of ``Value``s.
struct QueryableRoot: KeyedRoot {
    let address: UnsafeRawPointer
    let table: QueryableKeyTable

    func satisfies(_ comparison: KeyComparison) throws(EvaluationError) -> Bool {
        // An unknown key reads as nil, as it does through `QueryableObject`.
        guard let position = table.position(of: comparison.key) else { return try comparison.evaluate(value: .null) }
        if comparison.modifier != .direct, let holds = table.elementVisitors[position] { return try holds(address, comparison) }
        return try comparison.evaluate(value: table.addressReaders[position](address))
    }
}
