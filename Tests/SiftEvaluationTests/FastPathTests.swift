import Foundation
import Testing
@testable import SiftEvaluation
import SiftLanguage

/// The evaluator's fast paths (a key compared with a constant; prepared keys; stored
/// properties of PredicateQueryable structs) must give exactly the general path's answers.
@Suite("Evaluator fast paths")
struct FastPathTests {
    /// `key OP constant` takes the fast path; `SELF.key OP constant` the general one (the key
    /// path has a base). Both must agree on every value kind.
    static let values: [Value] = [
        .null, .bool(true), .bool(false), .int(0), .int(30), .int(31), .int(-5), .int(.max), .int(.min),
        .double(30), .double(30.5), .double(-0.0), .double(.nan), .double(.infinity), .double(9_007_199_254_740_992),
        .decimal(Decimal(string: "30.5") ?? 0), .string("30"), .string("Ann"), .string("ann"), .string("e\u{301}"), .string("é"),
        .date(Date(timeIntervalSinceReferenceDate: 30)), .data(Data([1])), .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))),
        .array([]), .array([.int(29), .int(31)]), .array([.null]), .set([.string("Ann")]), .dictionary(ValueDictionary([("k", .int(30))])),
    ]

    static let constants = ["30", "30.0", "30.5", "-0.0", "9007199254740992", "9223372036854775807", "'Ann'", "'é'", "'e\\u0301'", "nil", "YES", "CAST(30, 'NSDate')"]
    static let operators = ["==", "!=", "<", "<=", ">", ">=", "==[c]", "<[cd]", "!=[n]"]

    @Test(arguments: operators)
    func fastAndGeneralPathsAgree(_ op: String) throws {
        for constant in Self.constants {
            let fast = try CompiledPredicate(format: "x \(op) \(constant)")
            let general = try CompiledPredicate(format: "SELF.x \(op) \(constant)")
            for value in Self.values {
                let object = Value.dictionary(ValueDictionary([("a", .int(1)), ("x", value)]))
                #expect(try fast.evaluate(object) == general.evaluate(object), "x \(op) \(constant) on \(ValueText.text(value))")
            }
            // A missing key is nil.
            let empty = Value.dictionary(ValueDictionary())
            #expect(try fast.evaluate(empty) == general.evaluate(.dictionary(ValueDictionary([("x", .null)]))), "x \(op) \(constant) on a missing key")
        }
    }

    @Test func hardCasesByHand() throws {
        let nan = Value.dictionary(ValueDictionary([("x", .double(.nan))]))
        #expect(try !CompiledPredicate(format: "x == 1.0").evaluate(nan))
        #expect(try CompiledPredicate(format: "x != 1.0").evaluate(nan))
        #expect(try !CompiledPredicate(format: "x < 1").evaluate(nan))
        #expect(try !CompiledPredicate(format: "x >= 1").evaluate(nan))
        let big = Value.dictionary(ValueDictionary([("x", .int(9_007_199_254_740_993))]))
        #expect(try CompiledPredicate(format: "x > 9007199254740992.0").evaluate(big))
        #expect(try !CompiledPredicate(format: "x == 9007199254740992.0").evaluate(big))
        let tags = Value.dictionary(ValueDictionary([("x", .array([.int(1), .int(40)]))]))
        #expect(try CompiledPredicate(format: "x > 30").evaluate(tags))
        #expect(try CompiledPredicate(format: "x != 1").evaluate(tags))
        #expect(try !CompiledPredicate(format: "x > 40").evaluate(tags))
        let accent = Value.dictionary(ValueDictionary([("x", .string("e\u{301}"))]))
        #expect(try CompiledPredicate(format: "x == 'é'").evaluate(accent))
        #expect(try !CompiledPredicate(format: "x != 'é'").evaluate(accent))
        #expect(try CompiledPredicate(format: "x > 'd'").evaluate(accent))
    }

    @Test func keysAreFoundWhateverTheirRepresentation() throws {
        // Canonically equivalent keys are the same key (precomposed and decomposed), long keys
        // (not stored inline), keys built at run time, and large (indexed) dictionaries.
        let long = String(repeating: "k", count: 40)
        var built = "caf"
        built.append("e\u{301}")
        let pairs: [(String, Value)] = [("café", .int(1)), (long, .int(2)), ("\u{212B}ngstrom", .int(3))]
            + (0..<20).map { ("key\($0)", .int(Int64(100 + $0))) }
        for count in [3, pairs.count] {
            let object = Value.dictionary(ValueDictionary(Array(pairs.prefix(count))))
            #expect(try CompiledPredicate(format: "%K == 1", built).evaluate(object))
            #expect(try CompiledPredicate(format: "%K == 1", "café").evaluate(object))
            #expect(try CompiledPredicate(format: "%K == 2", String(repeating: "k", count: 40)).evaluate(object))
            #expect(try CompiledPredicate(format: "%K == 3", "Ångstrom").evaluate(object))
            #expect(try CompiledPredicate(format: "%K == nil", "cafe").evaluate(object))
            if count > 3 { #expect(try CompiledPredicate(format: "key19 == 119").evaluate(object)) }
        }
        // The dictionary itself agrees.
        let d = ValueDictionary(pairs)
        #expect(d.count == pairs.count)
        #expect(d[built] != nil)
        #expect(d.position(of: PreparedKey(built)) == 0)
        #expect(d.position(of: PreparedKey("key7")) == 10)
        #expect(d.position(of: PreparedKey("nope")) == nil)
    }

    @Test func dictionariesCopyOnWrite() {
        var a = ValueDictionary([("x", .int(1))])
        let b = a
        a["x"] = .int(2)
        a["y"] = .int(3)
        #expect(b["x"].map { ValueComparison.equals($0, .int(1)) } == true)
        #expect(b["y"] == nil)
        #expect(a.keys == ["x", "y"])
        a["x"] = nil
        #expect(a.keys == ["y"])
        #expect(b.keys == ["x"])
        // A repeated key keeps its first place and its last value.
        let c = ValueDictionary([("k", .int(1)), ("j", .int(2)), ("k", .int(3))])
        #expect(c.keys == ["k", "j"])
        #expect(c["k"].map { ValueComparison.equals($0, .int(3)) } == true)
    }

    struct Address: PredicateQueryable {
        var city: String
        var zip: Int?
        static let queryableKeys: QueryableKeys<Address> = ["city": .key(\.city), "zip": .key(\.zip)]
    }

    final class Owner: Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    struct Person: PredicateQueryable {
        var flag: Bool
        var name: String
        var age: Int
        var score: Double?
        var address: Address
        var tags: [String]
        var owner: Owner
        static let queryableKeys: QueryableKeys<Person> = [
            "flag": .key(\.flag), "name": .key(\.name), "age": .key(\.age), "score": .key(\.score),
            "address": .key(\.address), "city": .key(\.address.city), "tags": .key(\.tags),
            "ownerName": .key(\.owner.name), "double": .computed { .int(Int64($0.age * 2)) },
        ]
    }

    @Test func queryableStructsReadStoredAndComputedKeys() throws {
        let person = Person(flag: true, name: "Ann", age: 34, score: nil, address: Address(city: "Oslo", zip: 150), tags: ["a", "b"], owner: Owner(name: "Bo"))
        let object = Value(person)
        for (format, expected) in [
            ("age > 30", true), ("age == 34", true), ("name == 'Ann'", true), ("flag == YES", true), ("score == nil", true),
            ("score > 1", false), ("city == 'Oslo'", true), ("address.city == 'Oslo'", true), ("address.zip == 150", true),
            ("tags == 'b'", true), ("tags.@count == 2", true), ("ownerName == 'Bo'", true), ("double == 68", true),
            ("missing == nil", true), ("SELF == SELF", true),
        ] {
            #expect(try CompiledPredicate(format: format).evaluate(object) == expected, "\(format)")
        }
        #expect(Person.queryableKeys.names == ["flag", "name", "age", "score", "address", "city", "tags", "ownerName", "double"])
        // Stored properties are read in place; key paths through a class are not stored.
        #expect(Person.queryableKeys.table.storedReaders.map { $0 != nil } == [true, true, true, true, true, true, true, false, false])
        // Two wraps of the same struct are two objects; copies of one wrap are the same one.
        let copy = object
        #expect(ValueComparison.equals(object, copy))
        #expect(!ValueComparison.equals(object, Value(person)))
    }

    @Test func queryableStructsFromManyThreads() throws {
        let people = (0..<100).map { Value(Person(flag: $0 % 2 == 0, name: "p\($0)", age: $0, score: Double($0), address: Address(city: "c\($0)", zip: nil), tags: [], owner: Owner(name: "o"))) }
        let p = try CompiledPredicate(format: "age >= 50 AND city BEGINSWITH 'c' AND ownerName == 'o'")
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<20 where (try? p.filter(people).count) != 50 { failures.add() }
        }
        #expect(failures.count == 0)
    }
}
