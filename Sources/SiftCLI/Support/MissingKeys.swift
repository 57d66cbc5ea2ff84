import Sift

/// The key paths `sift filter` reads (in the predicate, --sort, --section-by and --select)
/// that no record has: after the run, one warning for each, with the nearest key the records
/// do have — `no record has 'tags'; did you mean 'tag'?`, `no record has 'address.cty'; did you
/// mean 'address.city'?` — rather than a silently empty result. A key one record has (even as
/// null) is not reported; nor is a key of values that are never objects (records that are
/// numbers, an `address` that is always null). Arrays on the way are looked into (to-many).
final class MissingKeys {
    /// A key path not yet found whole in a record.
    private struct Tracked {
        let keys: [String]
        /// How many of its keys one record had, at most.
        var found = 0
        /// Whether an object was seen where `keys[found]` should be.
        var sawObject = false
        /// Keys of those objects (below the top level), for the suggestion.
        var candidates: Set<String> = []
    }

    private var tracked: [Tracked]
    private var objectRecords = 0
    private let reader: any KeysSeenSource
    /// After this many object records, keys are no longer collected (enough for a suggestion).
    static let sampledRecords = 1000
    static let mostCandidates = 10_000

    /// `keyPaths`: each as its keys (`["address", "city"]`).
    init(keyPaths: [[String]], reader: any KeysSeenSource) {
        var seen: Set<[String]> = []
        tracked = keyPaths.filter { !$0.isEmpty && seen.insert($0).inserted }.map { Tracked(keys: $0) }
        self.reader = reader
        reader.collectsKeys = !tracked.isEmpty
    }

    /// Whether ``note(_:)`` still needs the records (some key path is not yet found whole).
    var isNoting: Bool { !tracked.isEmpty }

    /// Notes a record as read.
    func note(_ value: Value) {
        guard !tracked.isEmpty, case .dictionary = value else { return }
        objectRecords += 1
        let sampling = objectRecords <= Self.sampledRecords
        for i in tracked.indices { walk(&tracked[i], value, sampling: sampling) }
        tracked.removeAll { $0.found == $0.keys.count }
        if tracked.isEmpty || !sampling { reader.collectsKeys = false }
    }

    /// Follows `path` in `record` as far as it goes.
    private func walk(_ path: inout Tracked, _ record: Value, sampling: Bool) {
        var values = [record]
        var level = 0
        while level < path.keys.count {
            let key = path.keys[level]
            var next: [Value] = []
            var objects: [ValueDictionary] = []
            for value in values {
                switch value {
                case .dictionary(let object): objects.append(object)
                case .array(let elements), .set(let elements):
                    for case .dictionary(let object) in elements { objects.append(object) }
                default: break
                }
            }
            for object in objects {
                if let found = object[key] { next.append(found) }
            }
            if next.isEmpty {
                if level > path.found {
                    path.found = level
                    path.sawObject = false
                    path.candidates = []
                }
                if level == path.found && !objects.isEmpty {
                    path.sawObject = true
                    if sampling && level > 0 && path.candidates.count < Self.mostCandidates {
                        for object in objects { path.candidates.formUnion(object.keys) }
                    }
                }
                return
            }
            values = next
            level += 1
        }
        path.found = level
    }

    /// `no record has 'tags'; did you mean 'tag'?`, one for each key path no record had.
    var warnings: [String] {
        guard objectRecords > 0 else { return [] }
        return tracked.compactMap { path in
            guard path.sawObject else { return nil }
            let prefix = path.keys[..<path.found].map { $0 + "." }.joined()
            var message = "no record has '\(prefix)\(path.keys[path.found])'"
            let known = path.found == 0 ? reader.keysSeen.sorted() : path.candidates.sorted()
            if let suggestion = Suggestions.closest(to: path.keys[path.found], in: known) {
                message += "; did you mean '\(prefix)\(suggestion)'?"
            }
            return message
        }
    }

    /// The keys of a key path up to the first that is not a plain key (`tags.@count` →
    /// `["tags"]`).
    static func plainKeys(_ keys: [String]) -> [String] {
        Array(keys.prefix { !$0.isEmpty && !$0.hasPrefix("@") })
    }

    // MARK: The keys a predicate reads

    /// The key paths of the evaluated object that `predicate` reads, in order, each up to its
    /// first key that is not a plain key (not those read inside a SUBQUERY's predicate, which
    /// are the elements').
    static func keyPaths(readBy predicate: PredicateNode) -> [[String]] {
        var keys: [[String]] = []
        collect(predicate, into: &keys)
        return keys
    }

    private static func collect(_ predicate: PredicateNode, into keys: inout [[String]]) {
        switch predicate.kind {
        case .constant: break
        case .comparison(let comparison):
            collect(comparison.left, into: &keys)
            collect(comparison.right, into: &keys)
        case .and(let predicates), .or(let predicates):
            for p in predicates { collect(p, into: &keys) }
        case .not(let inner):
            collect(inner, into: &keys)
        }
    }

    private static func collect(_ expression: ExpressionNode, into keys: inout [[String]]) {
        switch expression.kind {
        case .constant, .variable, .evaluatedObject:
            break
        case .keyPath(let base, let path):
            if let base, base.kind != .evaluatedObject {
                collect(base, into: &keys)
            } else {
                let plain = Array(path.prefix { !$0.hasPrefix("@") })
                if !plain.isEmpty { keys.append(plain) }
            }
        case .index(let base, let subscriptKind):
            if base.kind == .evaluatedObject {
                if case .expression(let e) = subscriptKind, case .constant(.string(let key)) = e.kind { keys.append([key]) }
                return
            }
            if case .expression(let e) = subscriptKind { collect(e, into: &keys) }
            collect(base, into: &keys)
        case .aggregate(let elements), .function(_, let elements):
            for e in elements { collect(e, into: &keys) }
        case .dictionary(let entries):
            for entry in entries { collect(entry.value, into: &keys) }
        case .functionExpression(let receiver, _, let arguments):
            collect(receiver, into: &keys)
            for e in arguments { collect(e, into: &keys) }
        case .subquery(let collection, _, _):
            collect(collection, into: &keys)
        case .ternary(let condition, let then, let otherwise):
            collect(condition, into: &keys)
            collect(then, into: &keys)
            collect(otherwise, into: &keys)
        case .cast(let value, _), .assignment(_, let value), .unary(_, let value):
            collect(value, into: &keys)
        case .binary(_, let left, let right):
            collect(left, into: &keys)
            collect(right, into: &keys)
        }
    }
}

/// Where ``MissingKeys`` finds the top-level keys the records had (for its suggestions): the
/// reader of the input, or the replay of the keys of an input read in chunks.
protocol KeysSeenSource: AnyObject {
    var collectsKeys: Bool { get set }
    var keysSeen: Set<String> { get }
}

extension JSONRecordReader: KeysSeenSource {}
extension KeysSeenReplay: KeysSeenSource {}
