/// A ``PredicateQueryable`` value evaluated in place by a ``KeyedPlan``: its keys are read from
/// its address (the readers `QueryableObject` uses), and an array or set property's elements
/// are visited without building the array of ``Value``s.
struct QueryableRoot: KeyedRoot {
    let address: UnsafeRawPointer
    let table: QueryableKeyTable

    func satisfies(_ comparison: KeyComparison) throws(EvaluationError) -> Bool {
        // An unknown key reads as nil, as it does through `QueryableObject`.
        guard let position = table.position(of: comparison.key) else { return try comparison.evaluate(value: .null) }
        // The commonest stored properties are read where they are, each as its reader (and,
        // for `[String]`, its element visitor) reads it.
        switch table.fields[position] {
        case .int(let offset):
            return try comparison.evaluate(value: .int(Int64(address.load(fromByteOffset: offset, as: Int.self))))
        case .double(let offset):
            return try comparison.evaluate(value: .double(address.load(fromByteOffset: offset, as: Double.self)))
        case .string(let offset):
            return try comparison.evaluate(value: .string(address.load(fromByteOffset: offset, as: String.self)))
        case .strings(let offset) where comparison.modifier != .direct:
            return try comparison.holds(over: (address + offset).assumingMemoryBound(to: [String].self).pointee) { Value.string($0) }
        case .strings, .other:
            break
        }
        if comparison.modifier != .direct, let holds = table.elementVisitors[position] { return try holds(address, comparison) }
        return try comparison.evaluate(value: table.addressReaders[position](address))
    }
}
