import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// Shrinks a failing case — a data set and a request on which two stores disagree — to a
/// small one on which they still disagree, greedily, one simplification at a time:
///
/// 1. the request: no sections, no limit, offset or batch size, object IDs instead of objects
///    or a count, no sort descriptors (each dropped, then made plain: ascending, `compare`), no
///    predicate or a simpler one (a compound replaced by one of its parts, a part dropped, NOT
///    removed, a comparison's options or qualifier dropped, a comparison replaced by
///    TRUEPREDICATE / FALSEPREDICATE);
/// 2. the data: objects dropped (halves, quarters, ... single objects, as in delta
///    debugging), then each remaining object's relationships and attributes (an attribute
///    left out takes its default).
///
/// Passes repeat until none makes progress or the budget of store runs is spent. Any
/// disagreement counts: the shrunk case may fail differently from the original, which is
/// usual for shrinking and still a real disagreement.
struct DifferentialShrinker {
    /// Whether the stores still disagree on a case.
    let fails: (DifferentialDataSet, FetchRequest) -> Bool
    /// The most cases to try.
    var budget = 1500
    private(set) var attempts = 0

    init(budget: Int = 1500, fails: @escaping (DifferentialDataSet, FetchRequest) -> Bool) {
        self.budget = budget
        self.fails = fails
    }

    mutating func shrink(_ dataSet: DifferentialDataSet, _ request: FetchRequest) -> (DifferentialDataSet, FetchRequest) {
        var data = dataSet
        var request = request
        var progress = true
        while progress, attempts < budget {
            progress = false
            progress = shrinkRequest(data, &request) || progress
            progress = shrinkPredicate(data, &request) || progress
            progress = shrinkObjects(&data, request) || progress
            progress = shrinkValues(&data, request) || progress
        }
        return (data, request)
    }

    private mutating func attempt(_ data: DifferentialDataSet, _ request: FetchRequest) -> Bool {
        guard attempts < budget else { return false }
        attempts += 1
        return fails(data, request)
    }

    // MARK: The request

    private mutating func shrinkRequest(_ data: DifferentialDataSet, _ request: inout FetchRequest) -> Bool {
        var progress = false
        for candidate in requestSimplifications(request) where attempt(data, candidate) {
            request = candidate
            progress = true
        }
        return progress
    }

    /// Simpler variants of a request's settings, each one step simpler.
    private func requestSimplifications(_ request: FetchRequest) -> [FetchRequest] {
        var variants: [FetchRequest] = []
        func variant(_ change: (inout FetchRequest) -> Void) {
            var copy = request
            change(&copy)
            if copy != request { variants.append(copy) }
        }
        variant { $0.sectionNameKeyPath = nil }
        variant { $0.fetchLimit = 0 }
        variant { $0.fetchOffset = 0 }
        variant { $0.fetchBatchSize = 0 }
        variant { if $0.resultType != .objectIDs { $0.resultType = .objectIDs } }
        variant { $0.predicate = nil }
        variant { $0.includesSubentities = true }
        for index in request.sortDescriptors.indices.reversed() {
            variant { $0.sortDescriptors.remove(at: index) }
        }
        for index in request.sortDescriptors.indices {
            variant { $0.sortDescriptors[index].comparator = .compare }
            variant { $0.sortDescriptors[index].ascending = true }
        }
        // Dictionary fetches: fewer properties, no HAVING, no distinct.
        variant { $0.havingPredicate = nil }
        variant { $0.returnsDistinctResults = false }
        for index in request.propertiesToFetch.indices.reversed() {
            variant { $0.propertiesToFetch.remove(at: index) }
        }
        for index in request.propertiesToGroupBy.indices.reversed() where request.propertiesToGroupBy.count > 1 {
            variant { $0.propertiesToGroupBy.remove(at: index) }
        }
        // Smaller limits and offsets, when dropping them loses the failure.
        if request.fetchLimit > 1 { variant { $0.fetchLimit -= 1 } }
        if request.fetchOffset > 0 { variant { $0.fetchOffset -= 1 } }
        return variants
    }

    // MARK: The predicate

    private mutating func shrinkPredicate(_ data: DifferentialDataSet, _ request: inout FetchRequest) -> Bool {
        var progress = false
        var improved = true
        while improved, attempts < budget {
            improved = false
            guard let predicate = request.predicate else { break }
            for simpler in Self.simplifications(predicate) {
                var candidate = request
                candidate.predicate = simpler
                if attempt(data, candidate) {
                    request = candidate
                    improved = true
                    progress = true
                    break
                }
            }
        }
        return progress
    }

    /// Every predicate one step simpler than `predicate`, simplest first.
    static func simplifications(_ predicate: PredicateNode) -> [PredicateNode] {
        switch predicate.kind {
        case .constant:
            return []
        case .comparison(let comparison):
            var out: [PredicateNode] = [PredicateNode(.constant(true)), PredicateNode(.constant(false))]
            if comparison.modifier != .direct {
                var plain = comparison
                plain.modifier = .direct
                out.append(PredicateNode(.comparison(plain)))
            }
            if !comparison.options.isEmpty {
                var plain = comparison
                plain.options = []
                out.append(PredicateNode(.comparison(plain)))
            }
            return out
        case .not(let operand):
            return [operand] + simplifications(operand).map { PredicateNode(.not($0)) }
        case .and(let operands), .or(let operands):
            let isAnd: Bool = if case .and = predicate.kind { true } else { false }
            func rebuild(_ parts: [PredicateNode]) -> PredicateNode {
                parts.count == 1 ? parts[0] : PredicateNode(isAnd ? .and(parts) : .or(parts))
            }
            var out: [PredicateNode] = operands
            if operands.count > 2 {
                for index in operands.indices {
                    var parts = operands
                    parts.remove(at: index)
                    out.append(rebuild(parts))
                }
            }
            for index in operands.indices {
                for simpler in simplifications(operands[index]) {
                    var parts = operands
                    parts[index] = simpler
                    out.append(rebuild(parts))
                }
            }
            return out
        }
    }

    // MARK: The data

    /// Drops objects, in chunks from half the data set down to one object.
    private mutating func shrinkObjects(_ data: inout DifferentialDataSet, _ request: FetchRequest) -> Bool {
        var progress = false
        var chunk = max(1, data.objects.count / 2)
        while attempts < budget, !data.objects.isEmpty {
            var start = 0
            while start < data.objects.count, attempts < budget {
                let smaller = data.removing(Set(start..<min(data.objects.count, start + chunk)))
                if attempt(smaller, request) {
                    data = smaller
                    progress = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1 { break }
            chunk = max(1, min(chunk / 2, data.objects.count / 2))
        }
        return progress
    }

    /// Drops each object's relationships and attributes, one at a time.
    private mutating func shrinkValues(_ data: inout DifferentialDataSet, _ request: FetchRequest) -> Bool {
        var progress = false
        for index in data.objects.indices {
            var relationship = data.objects[index].relationships.count - 1
            while relationship >= 0, attempts < budget {
                var smaller = data
                smaller.objects[index].relationships.remove(at: relationship)
                if attempt(smaller, request) {
                    data = smaller
                    progress = true
                }
                relationship -= 1
            }
            var attribute = data.objects[index].attributes.count - 1
            while attribute >= 0, attempts < budget {
                var smaller = data
                smaller.objects[index].attributes.remove(at: attribute)
                // (Leaving out a required attribute without a default makes both stores refuse
                // the data set: that is no failure, so such an attribute stays.)
                if attempt(smaller, request) {
                    data = smaller
                    progress = true
                }
                attribute -= 1
            }
        }
        return progress
    }
}
