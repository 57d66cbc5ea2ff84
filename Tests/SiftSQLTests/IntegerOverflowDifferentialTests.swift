import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// Arithmetic at the edges of 64-bit integers and doubles, in both engines: the in-memory
/// evaluator defines the answer (an integer operation that overflows gives a double, as SQLite's
/// own arithmetic does; `abs:` and `-` of the least integer a double; shifts by 64 or more, or by
/// a negative count, shift the other way or to 0/-1; dates move by seconds; division by zero is
/// nil), and the SQLite store must give the same — never a trap, never a wrapped-around integer.
///
/// Each expression is read on rows holding Int64.min, Int64.max, -1, 0, huge and tiny doubles
/// and far dates; every value the evaluator computes is then looked for with `==`, `<` and `>`
/// in both stores, which must return the same objects (or both fail).
@Suite struct IntegerOverflowDifferentialTests {
    static let modelJSON = #"""
    {"name": "Edges", "entities": [{"name": "Row", "attributes": [
      {"name": "i", "type": "Integer 64"}, {"name": "j", "type": "Integer 64"},
      {"name": "d", "type": "Double"}, {"name": "t", "type": "Date"}]}]}
    """#

    /// (i, j, d, t as seconds since 2001).
    static let rows: [(Int64?, Int64?, Double?, Double?)] = [
        (.max, 1, 1e300, 0),
        (.min, -1, -1e300, 1e300),
        (.min, 64, 1e308, -1e300),
        (-1, .min, 0, 9.2e18),
        (5, 0, -0.0, -9.2e18),
        (.max, .max, 710, 1e308),
        (3, -3, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude),
        (0, .max, nil, nil),
        (.min, 65, 2, 1),
        (1, -64, -710, 0),
        (nil, 3, 1, 1),
    ]

    static let expressions = [
        "i + j", "i - j", "i * j", "i / j", "-i", "-j", "abs:(i)", "abs:(j)", "modulus:by:(i, j)",
        "raise:toPower:(i, j)", "i ** 2", "i << j", "i >> j", "leftshift:by:(i, j)", "rightshift:by:(j, i)",
        "i & j", "i | j", "i ^ j", "~i", "onesComplement:(j)", "i + 9223372036854775807", "i - 9223372036854775807",
        "i * -1", "i / -1", "i * j * j", "from:subtract:(i, j)", "multiply:by:(j, i)", "divide:by:(i, j)", "add:to:(j, i)",
        "d * d", "d + i", "i - d", "exp:(d)", "ln:(d)", "sqrt:(d)", "floor:(d)", "ceiling:(d)", "trunc:(d)",
        "t + i", "t - i", "t + d", "t - d", "t - t", "t + 9223372036854775807", "CAST(d, 'NSDate')", "CAST(i, 'NSDate')",
        "CAST(d, 'NSDate') + d",
    ]

    static func stores() throws -> (memory: any PersistentStore, sqlite: SQLiteStore) {
        let model = try JSONModelFormat.read(Data(modelJSON.utf8))
        let memory = AtomicStore.inMemory(model: model)
        let sqlite = try SQLiteStore.inMemory(model: model)
        for store in [memory, sqlite] as [any PersistentStore] {
            for (n, row) in rows.enumerated() {
                var attributes: [String: Value] = [:]
                attributes["i"] = row.0.map(Value.int) ?? .null
                attributes["j"] = row.1.map(Value.int) ?? .null
                attributes["d"] = row.2.map(Value.double) ?? .null
                attributes["t"] = row.3.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
                try store.insert("Row", id: ObjectID("r\(n)"), attributes)
            }
            try store.save()
        }
        return (memory, sqlite)
    }

    /// A value as a format argument.
    static func argument(_ value: Value) -> Any? {
        switch value {
        case .int(let i): i
        case .double(let d): d
        case .date(let d): d
        case .bool(let b): b
        default: nil
        }
    }

    /// The IDs a fetch returns, or that it failed.
    static func ids(_ store: any PersistentStore, _ request: FetchRequest) -> Result<[ObjectID], Failed> {
        do {
            return .success(try store.fetch(request).checkedObjectIDs())
        } catch {
            return .failure(Failed())
        }
    }

    struct Failed: Error, Equatable {}

    @Test(arguments: expressions)
    func bothEnginesAgree(_ expression: String) throws {
        let (memory, sqlite) = try Self.stores()
        let compiled = try CompiledExpression(format: expression)
        // The values the evaluator computes (errors are compared below, as fetch failures).
        var values: [Value] = []
        for object in try memory.fetch(FetchRequest(statement: "Row")) {
            guard let value = try? compiled.evaluate(.object(object)), !value.isNull else { continue }
            if case .double(let d) = value, d.isNaN { continue }  // SQL holds NaN as NULL
            values.append(value)
        }
        var predicates = ["\(expression) == nil", "\(expression) != nil"]
        var arguments: [[Any?]] = [[], []]
        for value in values {
            for op in ["==", "<", ">"] {
                predicates.append("\(expression) \(op) %@")
                arguments.append([Self.argument(value)])
            }
        }
        for (predicate, args) in zip(predicates, arguments) {
            let request = try FetchRequest(entityName: "Row", predicate: predicate, arguments: args)
            let expected = Self.ids(memory, request)
            let actual = Self.ids(sqlite, request)
            #expect(actual == expected, "\(predicate) with \(args.map { "\($0 ?? "nil")" }): SQLite \(actual), evaluator \(expected)")
        }
    }

    /// The integer cases run in SQL, not by falling back to the evaluator: the test checks
    /// SQLite's own arithmetic.
    @Test(arguments: ["i + j", "i - j", "i * j", "i / j", "-i", "i << j", "i >> j", "i & j", "i | j", "~i",
                      "i + 9223372036854775807", "i * -1", "i / -1", "t + i", "t - i", "d * d", "d + i"])
    func integerArithmeticRunsInSQL(_ expression: String) throws {
        let (_, sqlite) = try Self.stores()
        let request = try FetchRequest(entityName: "Row", predicate: "\(expression) > %@", arguments: [Int64(0)])
        let generated = try sqlite.generatedSQL(for: request)
        #expect(generated.inMemoryPredicate == nil, "\(generated)")
    }

    /// `random:` of the largest and least integers, and `random`, evaluate (in memory: SQL
    /// does not compile them, their values differ per object) without a trap, in both stores.
    @Test(arguments: ["random:(i) >= 0", "random:(9223372036854775807) >= 0", "random:(-9223372036854775808) == nil",
                      "random:(j) == nil OR random:(j) < j", "random() >= 0 AND random() < 1", "random:(0) == nil"])
    func randomAtTheEdges(_ predicate: String) throws {
        let (memory, sqlite) = try Self.stores()
        for store in [memory, sqlite] as [any PersistentStore] {
            let request = try FetchRequest(entityName: "Row", predicate: predicate)
            #expect(throws: Never.self) { _ = try store.fetch(request).checkedObjectIDs() }
        }
        #expect(try sqlite.generatedSQL(for: FetchRequest(entityName: "Row", predicate: predicate)).inMemoryPredicate != nil)
    }

    /// What overflow gives, in words: a double, not a wrapped integer and not a trap.
    @Test func overflowGivesADoubleInBothEngines() throws {
        let (memory, sqlite) = try Self.stores()
        for store in [memory, sqlite] as [any PersistentStore] {
            // Int64.max + 1 is 9.223372036854776e18 (a double), not Int64.min.
            let request = try FetchRequest(entityName: "Row", predicate: "i + j == %@ AND i > 0", arguments: [9223372036854775808.0])
            #expect(try store.fetch(request).objectIDs == ["r0"])
            let negated = try FetchRequest(entityName: "Row", predicate: "-i == %@", arguments: [9223372036854775808.0])
            #expect(Set(try store.fetch(negated).objectIDs) == ["r1", "r2", "r8"])
            let shifted = try FetchRequest(entityName: "Row", predicate: "i << j == 0 AND j >= 64")
            #expect(Set(try store.fetch(shifted).objectIDs) == ["r2", "r5", "r7", "r8"])
        }
    }
}
