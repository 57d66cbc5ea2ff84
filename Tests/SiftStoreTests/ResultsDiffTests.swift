import SiftLanguage
import Testing
@testable import SiftStore

/// The change sets of ``ResultsDiff`` on hand-made snapshots: Core Data's vocabulary and order,
/// and the rules of what is a move and what an update.
@Suite struct ResultsDiffTests {
    /// A snapshot from `"a: 1 2 3 | b: 4"` (sections separated by `|`).
    static func snapshot(_ text: String) -> ResultsSnapshot {
        ResultsSnapshot(sections: text.split(separator: "|").map { part in
            let halves = part.split(separator: ":", maxSplits: 1)
            let name = halves[0].trimmingCharacters(in: .whitespaces)
            let ids = halves.count > 1 ? halves[1].split(separator: " ").map { ObjectID(String($0)) } : []
            return .init(name: name, objectIDs: ids)
        })
    }

    /// A change set written compactly: `-a@0.1` delete, `+a@0.1` insert, `~a@0.1>1.0` move,
    /// `!a@0.1>0.2` update; `-S1:b` section delete, `+S1:b` section insert.
    static func describe(_ changes: ResultsChangeSet) -> String {
        func path(_ p: ResultIndexPath?) -> String { p.map { "\($0.section).\($0.row)" } ?? "?" }
        var parts: [String] = []
        parts += changes.sectionDeletes.map { "-S\($0.index):\($0.name)" }
        parts += changes.sectionInserts.map { "+S\($0.index):\($0.name)" }
        for change in changes.objectChanges {
            switch change.kind {
            case .delete: parts.append("-\(change.objectID)@\(path(change.oldIndexPath))")
            case .insert: parts.append("+\(change.objectID)@\(path(change.newIndexPath))")
            case .move: parts.append("~\(change.objectID)@\(path(change.oldIndexPath))>\(path(change.newIndexPath))")
            case .update: parts.append("!\(change.objectID)@\(path(change.oldIndexPath))>\(path(change.newIndexPath))")
            }
        }
        return parts.joined(separator: " ")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let old: String, new: String, updated: [String], expected: String
        var testDescription: String { "\(old) → \(new)" }
    }

    static let cases: [Case] = [
        // Nothing changed; a change to a value the fetch does not read is no change.
        Case(old: "s: 1 2 3", new: "s: 1 2 3", updated: [], expected: ""),
        // Inserts and deletes shift the others, which are not moves.
        Case(old: "s: 1 2 3", new: "s: 1 4 2 3", updated: [], expected: "+4@0.1"),
        Case(old: "s: 1 2 3 4", new: "s: 1 3", updated: [], expected: "-4@0.3 -2@0.1"),
        // An update in place, shifted by a delete before it: old and new index paths.
        Case(old: "s: 1 2 3", new: "s: 2 3", updated: ["3"], expected: "-1@0.0 !3@0.2>0.1"),
        // A sort key change: the changed object moves, not the ones it passes.
        Case(old: "s: 1 2 3 4", new: "s: 2 3 4 1", updated: ["1"], expected: "~1@0.0>0.3"),
        Case(old: "s: 1 2 3 4", new: "s: 4 1 2 3", updated: ["4"], expected: "~4@0.3>0.0"),
        // Changed but still in order among the others: an update.
        Case(old: "s: 1 2 3", new: "s: 1 2 3", updated: ["2"], expected: "!2@0.1>0.1"),
        // Two swapped, neither reported changed (a key through a relationship): one move.
        Case(old: "s: 1 2", new: "s: 2 1", updated: [], expected: "~1@0.0>0.1"),
        // A section key change: a move to the other section.
        Case(old: "a: 1 2 | b: 3", new: "a: 1 | b: 2 3", updated: ["2"], expected: "~2@0.1>1.0"),
        // A new section and its object; an emptied section and its object.
        Case(old: "a: 1 | c: 3", new: "a: 1 | b: 2 | c: 3", updated: [], expected: "+S1:b +2@1.0"),
        Case(old: "a: 1 | b: 2 | c: 3", new: "a: 1 | c: 3", updated: [], expected: "-S1:b -2@1.0"),
        Case(old: "a: 1 | b: 2", new: "b: 2 | c: 1", updated: ["1"], expected: "-S0:a +S1:c ~1@0.0>1.0"),
        // Sections that changed places: the fewest deleted and inserted again.
        Case(old: "a: 1 | b: 2 | c: 3", new: "b: 2 | c: 3 | a: 1", updated: [], expected: "-S0:a +S2:a ~1@0.0>2.0"),
        // Updates among the objects before and after the part that changed.
        Case(old: "s: 1 2 3 4 5", new: "s: 1 3 4 5", updated: ["5", "1"], expected: "-2@0.1 !1@0.0>0.0 !5@0.4>0.3"),
        Case(old: "a: 1 2 | b: 3 4 5", new: "a: 1 2 | b: 3 5 4 6", updated: ["2", "4"], expected: "+6@1.3 ~4@1.1>1.2 !2@0.1>0.1"),
        // Everything at once, in order: section changes, deletes descending, inserts ascending,
        // moves and updates by old index path.
        Case(old: "a: 1 2 3 | b: 4 5", new: "a: 6 3 2 | b: 5 | c: 4", updated: ["2", "5"],
             expected: "+S2:c -1@0.0 +6@0.0 ~2@0.1>0.2 ~4@1.0>2.0 !5@1.1>1.0"),
    ]

    @Test(arguments: cases)
    func changeSet(_ c: Case) throws {
        let old = Self.snapshot(c.old), new = Self.snapshot(c.new)
        let changes = ResultsDiff.changes(from: old, to: new, updated: Set(c.updated.map { ObjectID($0) }))
        #expect(Self.describe(changes) == c.expected)
        #expect(changes.snapshot == new)
        #expect(try old.applying(changes) == new)
    }

    /// A change set applied to another state than its own is refused, naming the index path.
    @Test func applyingChecksIndexPaths() {
        let changes = ResultsDiff.changes(from: Self.snapshot("s: 1 2 3"), to: Self.snapshot("s: 1 3"))
        #expect(throws: ResultsSnapshot.ApplicationError.self) { try Self.snapshot("s: 1 3").applying(changes) }
        #expect(throws: ResultsSnapshot.ApplicationError.self) { try Self.snapshot("s: 1").applying(changes) }
    }

    /// Random pairs of sectioned states (objects entering, leaving, changing section and
    /// order, some reported changed): the change set always turns the old state into the new,
    /// every index path valid where it is applied; an object not reported changed that kept its
    /// section and order is never touched.
    @Test func randomStatesRoundTrip() throws {
        var generator = SplitMix(seed: 33)
        for _ in 0..<3000 {
            let old = Self.randomState(&generator)
            let new = Self.randomState(&generator, from: old)
            let updated = Set(old.sections.flatMap(\.objectIDs).filter { _ in generator.next() % 4 == 0 })
            let changes = ResultsDiff.changes(from: old, to: new, updated: updated)
            #expect(try old.applying(changes) == new)
            for change in changes.updates { #expect(updated.contains(change.objectID)) }
            if old == new && updated.isEmpty { #expect(changes.isEmpty) }
        }
    }

    static func randomState(_ g: inout SplitMix, from base: ResultsSnapshot? = nil) -> ResultsSnapshot {
        // Objects 0..<30 each in a section (or absent), ordered by a random rank; from `base`,
        // most objects keep their section and rank.
        let names = ["a", "b", "c", "d"]
        let sectionIndex: [String: Int] = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var previous: [Int: (section: Int, rank: Int)] = [:]
        for section in base?.sections ?? [] {
            for (r, id) in section.objectIDs.enumerated() { previous[Int(id.rawValue)!] = (sectionIndex[section.name]!, r * 10) }
        }
        var placed: [(section: Int, rank: Int, id: Int)] = []
        for id in 0..<30 {
            if let kept = previous[id], g.next() % 5 != 0 {
                placed.append((kept.section, kept.rank, id))
            } else if g.next() % 3 != 0 {
                placed.append((Int(g.next() % 4), Int(g.next() % 400), id))
            }
        }
        placed.sort { ($0.section, $0.rank, $0.id) < ($1.section, $1.rank, $1.id) }
        var sections: [ResultsSnapshot.Section] = []
        for item in placed {
            if sections.last?.name != names[item.section] { sections.append(.init(name: names[item.section], objectIDs: [])) }
            sections[sections.count - 1].objectIDs.append(ObjectID(String(item.id)))
        }
        return ResultsSnapshot(sections: sections)
    }
}

/// A small seeded generator (the same sequence on every platform and run).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
