/// One section of sectioned results (NSFetchedResultsSectionInfo).
public struct Section: Sendable, Hashable {
    /// The section key's text form (FETCH.md §4), of the section's first object; nil is `""`,
    /// sharing a section with `""`.
    public let name: String
    /// The name's first character upper-cased; empty for an empty name.
    public let indexTitle: String
    public var numberOfObjects: Int { objectIndices.count }
    /// Positions of the section's objects in the input, in result order.
    public let objectIndices: [Int]

    public init(name: String, indexTitle: String, objectIndices: [Int]) {
        self.name = name
        self.indexTitle = indexTitle
        self.objectIndices = objectIndices
    }

    /// The index title of a section name.
    public static func indexTitle(for name: String) -> String {
        name.first.map { String($0).uppercased() } ?? ""
    }
}

/// Results grouped by a section key path (FETCH.md §4): sections in the order of their first
/// object in the results, objects in result order inside a section. Values equal under `==`
/// (`0`, `-0.0`, `0.0`) share a section, named as its first value prints (``SectionIdentity``).
public struct SectionedResults: Sendable {
    public let sections: [Section]
    /// The index titles of the sections, in order.
    public var sectionIndexTitles: [String] { sections.map(\.indexTitle) }
    /// Set when a section's objects are not contiguous in the results (the first sort key does
    /// not group the section key).
    public let warning: String?

    /// Groups `values[order[0]], values[order[1]], ...` by `keyPath`: keys separated by dots,
    /// each as the data names it (NSFetchedResultsController's sectionNameKeyPath: `2B`, not
    /// the format string's `#2B`).
    ///
    /// The sections count against ``EvaluationBudget/memoryLimit``: past it, this throws an
    /// ``EvaluationError/Code/memoryLimit`` error.
    public init(_ values: [Value], order: [Int], sectionKeyPath keyPath: String) throws(EvaluationError) {
        var tally = MemoryTally()
        try self.init(values, order: order, sectionKeyPath: keyPath, tally: &tally, sectionCost: 0)
    }

    /// Sections counted in `tally`, each costing `sectionCost` bytes more (what the caller
    /// builds for it).
    package init(_ values: [Value], order: [Int], sectionKeyPath keyPath: String, tally: inout MemoryTally, sectionCost: Int) throws(EvaluationError) {
        let expression = try CompiledExpression(SortKey.expression(ofKeyPath: keyPath))
        // Sections by identity (equal values share one), named by their first value's text.
        var keys: [String] = []
        var names: [String: String] = [:]
        var members: [String: [Int]] = [:]
        var lastKey: String?
        var contiguous = true
        for index in order {
            let value = try expression.evaluate(values[index])
            let key = SectionIdentity.key(of: value)
            if members[key] == nil {
                // A key, a name and a member list, each in a dictionary entry or an array.
                guard tally.hold(Self.sectionCost + sectionCost + 3 * key.utf8.count) else {
                    throw tally.sectionsError(keyPath, count: keys.count)
                }
                keys.append(key)
                names[key] = ValueText.text(value)
                members[key] = [index]
            } else {
                guard tally.hold(MemoryLayout<Int>.stride) else { throw tally.sectionsError(keyPath, count: keys.count) }
                if lastKey != key { contiguous = false }
                members[key]?.append(index)
            }
            lastKey = key
        }
        sections = keys.map { key in
            let name = names[key] ?? key
            return Section(name: name, indexTitle: Section.indexTitle(for: name), objectIndices: members[key] ?? [])
        }
        warning = contiguous ? nil : Self.notContiguousWarning(keyPath)
    }

    /// What one section costs here beyond its key's bytes, roughly: its key and name strings,
    /// their dictionary entries, its members' array.
    static let sectionCost = 320

    /// The warning for sections whose objects are not contiguous in the results.
    public static func notContiguousWarning(_ keyPath: String) -> String {
        "sections are not contiguous: the first sort key does not group '\(keyPath)' (sort by \(keyPath) first)"
    }
}

extension MemoryTally {
    /// The error for sections past the memory limit, `count` sections in.
    package func sectionsError(_ keyPath: String, count: Int) -> EvaluationError {
        error("the sections of '\(keyPath)'", progress: "\(count.formatted()) sections",
              advice: "narrow the fetch with a predicate, page it with LIMIT and OFFSET, or section by a key with fewer distinct values")
    }
}
