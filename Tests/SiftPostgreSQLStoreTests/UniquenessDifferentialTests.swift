import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Testing

/// The PostgreSQL store's uniqueness check (one set-based statement per constraint) against the
/// in-memory store's: random rounds of inserts and updates — twins of saved rows, twins within
/// the round, nil values, a constraint of two attributes, a sub-entity's own constraint — saved
/// in both; each round both save, or both fail with the same message (then both roll back).
@Suite struct UniquenessDifferentialTests {
    static let model = StoreTestModels.model("""
        {"name": "Codes", "entities": [
          {"name": "Item", "attributes": [{"name": "kind", "type": "string"}, {"name": "code", "type": "integer64"}, {"name": "note", "type": "string"}],
           "uniquenessConstraints": [["kind", "code"]]},
          {"name": "Special", "parent": "Item", "attributes": [{"name": "tag", "type": "string"}], "uniquenessConstraints": [["tag"]]},
          {"name": "Other", "attributes": [{"name": "name", "type": "string"}], "uniquenessConstraints": [["name"]]}
        ]}
        """)

    /// A small deterministic generator (SplitMix64), so a failing round can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func outcome(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "saved"
        } catch let error as StoreError {
            return "\(error.code): \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    @Test func randomRoundsAgreeWithTheInMemoryStore() async throws {
        let test = try await StoreTestDatabase.make(Self.model, label: "uniquediff")
        defer { test.database.drop() }
        let stores: [any PersistentStore] = [AtomicStore.inMemory(model: Self.model), test.store]
        var random = Generator(state: 30)
        var ids: [String] = []
        var next = 0
        var failures = 0
        for round in 0..<60 {
            var operations: [(any PersistentStore) throws -> Void] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let kind: Value = Bool.random(using: &random) && Int.random(in: 0..<5, using: &random) == 0 ? .null : .string(["a", "b"].randomElement(using: &random)!)
                let code: Value = Int.random(in: 0..<6, using: &random) == 0 ? .null : .int(Int64.random(in: 0..<8, using: &random))
                if !ids.isEmpty && Int.random(in: 0..<4, using: &random) == 0 {
                    let id = ObjectID(ids.randomElement(using: &random)!)
                    let attributes: [String: Value] = id.rawValue.hasPrefix("O") ? ["name": .string("n\(Int.random(in: 0..<6, using: &random))")]
                        : id.rawValue.hasPrefix("S") && Bool.random(using: &random) ? ["tag": .string("t\(Int.random(in: 0..<5, using: &random))")]
                        : ["kind": kind, "code": code]
                    operations.append { store in try store.update(id, attributes: attributes, relationships: [:]) }
                    continue
                }
                next += 1
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    let id = "I\(next)"
                    operations.append { store in try store.insert("Item", id: ObjectID(id), ["kind": kind, "code": code]) }
                case 1:
                    let id = "S\(next)", tag: Value = Int.random(in: 0..<4, using: &random) == 0 ? .null : .string("t\(Int.random(in: 0..<5, using: &random))")
                    operations.append { store in try store.insert("Special", id: ObjectID(id), ["kind": kind, "code": code, "tag": tag]) }
                default:
                    let id = "O\(next)"
                    let name = "n\(Int.random(in: 0..<6, using: &random))"
                    operations.append { store in try store.insert("Other", id: ObjectID(id), ["name": .string(name)]) }
                }
            }
            let outcomes = stores.map { store in
                Self.outcome {
                    do {
                        try store.performChanges {
                            for operation in operations { try operation(store) }
                            try store.save()
                        }
                    } catch {
                        store.rollback()
                        throw error
                    }
                }
            }
            #expect(outcomes[0] == outcomes[1], "round \(round)")
            if outcomes[0] == "saved" {
                ids = try test.store.fetch(FetchRequest(entityName: "Item")).objectIDs.map(\.rawValue)
                    + test.store.fetch(FetchRequest(entityName: "Other")).objectIDs.map(\.rawValue)
            } else {
                failures += 1
            }
        }
        // The rounds test both ways.
        #expect(failures > 5 && failures < 55, "\(failures) of 60 rounds failed")
        for entity in ["Item", "Special", "Other"] {
            #expect(try stores[0].fetch(FetchRequest(entityName: entity)).objectIDs == stores[1].fetch(FetchRequest(entityName: entity)).objectIDs)
        }
    }
}
