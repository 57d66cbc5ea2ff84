import Foundation
import Testing
@testable import SiftEvaluation
import SiftLanguage

/// The fast paths for a key compared with a constant — with a qualifier, with string options,
/// with any operator; the plan that evaluates dictionaries and queryable structs without the
/// closure tree; a string test's needle prepared once — must give exactly the general path's
/// answers, on the awkward values too.
@Suite("Evaluator fast paths: keyed plans, qualifiers, prepared needles")
struct KeyedPlanTests {
    /// Values of every kind, and collections of them, for the key `x`.
    static let values: [Value] = FastPathTests.values + [
        .string("Stella"), .string("STÉPHANE"), .string("stéphane"), .string("s\u{0074}e\u{301}phane"), .string("ſt"), .string("ǅ"),
        .string(""), .string("x"), .string("straße"), .string("İstanbul"), .int(Int64(1) << 53 + 1),
        .array([.string("x"), .string("y")]), .array([.string("y"), .string("z")]), .set([.string("X"), .null]),
        .array([.int(30), .double(.nan), .decimal(Decimal(string: "30.5") ?? 0)]), .array([.array([.string("x")]), .string("z")]),
        .dictionary(ValueDictionary([("a", .string("x")), ("b", .int(31))])), .array([.null, .null]),
    ]

    static let constants = ["30", "30.5", "9007199254740993", "'x'", "'st'", "'ST'", "'É'", "'e\\u0301'", "'ß'", "''", "'\\u0301'", "nil", "YES"]
    static let operators = ["==", "!=", "<", ">=", "==[c]", "!=[cd]", "BEGINSWITH", "BEGINSWITH[cd]", "ENDSWITH[c]", "CONTAINS[d]",
                            "CONTAINS[cd]", "LIKE[c]", "MATCHES", "IN", "BEGINSWITH[n]", "==[l]"]
    static let qualifiers = ["", "ANY ", "ALL ", "NONE "]

    /// The plan (dictionary root), the closure tree's fast comparison (`AND SELF != nil` keeps
    /// the predicate out of the plan) and the general path (`SELF.x`) agree on every value.
    @Test(arguments: qualifiers)
    func planFastClosureAndGeneralPathAgree(_ qualifier: String) throws {
        for op in Self.operators {
            for constant in Self.constants {
                guard let general = try? CompiledPredicate(format: "\(qualifier)SELF.x \(op) \(constant)") else { continue }
                let planned = try CompiledPredicate(format: "\(qualifier)x \(op) \(constant)")
                let closure = try CompiledPredicate(format: "\(qualifier)x \(op) \(constant) AND SELF != nil")
                #expect(planned.plan != nil)
                #expect(closure.plan == nil)
                for value in Self.values {
                    let object = Value.dictionary(ValueDictionary([("a", .int(1)), ("x", value)]))
                    let expected = try? general.evaluate(object)
                    let context = "\(qualifier)x \(op) \(constant) on \(ValueText.text(value))"
                    let viaPlan = try? planned.evaluate(object), viaClosure = try? closure.evaluate(object)
                    #expect(viaPlan == expected, "\(context)")
                    #expect(viaClosure == expected, "\(context)")
                }
                // A missing key is nil.
                let missing = try? general.evaluate(.dictionary(ValueDictionary([("x", .null)])))
                let viaPlan = try? planned.evaluate(.dictionary(ValueDictionary()))
                let viaClosure = try? closure.evaluate(.dictionary(ValueDictionary()))
                #expect(viaPlan == missing, "\(qualifier)x \(op) \(constant) on a missing key")
                #expect(viaClosure == missing, "\(qualifier)x \(op) \(constant) on a missing key")
            }
        }
    }

    /// `matchingIndices(in:)` reads each record where it lies and answers as evaluating each
    /// one: dictionaries through the plan, other values (and predicates without a plan) through
    /// the closure tree, and a record that cannot be evaluated throws as `evaluate` does.
    @Test(arguments: ["age > 30", "name BEGINSWITH[cd] 'st' AND age > 30", "ANY tags == 'x'", "age > 30 AND SELF != nil", "TRUEPREDICATE"])
    func matchingIndicesAreTheRecordsEvaluateAccepts(_ format: String) throws {
        let predicate = try CompiledPredicate(format: format)
        var records: [Value] = []
        for (i, name) in ["Stella", "stan", "Bob", "Štěpán", "", "steve"].enumerated() {
            records.append(.dictionary(ValueDictionary([("name", .string(name)), ("age", .int(Int64(20 + 7 * i))),
                                                        ("tags", .array(i % 2 == 0 ? [.string("x")] : [.string("y"), .null]))])))
        }
        records += [.dictionary(ValueDictionary()), .null, .string("not a record")]
        let expected = records.indices.filter { (try? predicate.evaluate(records[$0])) == true }
        let thrown = records.indices.filter { (try? predicate.evaluate(records[$0])) == nil }
        if thrown.isEmpty {
            #expect(try predicate.matchingIndices(in: records) == expected, "\(format)")
            #expect(try predicate.matchingIndices(in: []) == [])
        } else {
            #expect(throws: EvaluationError.self) { try predicate.matchingIndices(in: records) }
            let evaluable = records.indices.filter { !thrown.contains($0) }.map { records[$0] }
            let evaluableExpected = try evaluable.indices.filter { try predicate.evaluate(evaluable[$0]) }
            #expect(try predicate.matchingIndices(in: evaluable) == evaluableExpected, "\(format)")
        }
        #expect(!expected.isEmpty, "\(format): the records should match some")
    }

    /// A needle prepared once answers as `StringPredicates` does, for every option.
    @Test(arguments: ["", "[c]", "[d]", "[cd]", "[n]", "[cn]"])
    func preparedNeedlesAnswerAsStringPredicates(_ written: String) throws {
        var options: ComparisonOptions = []
        if written.contains("c") { options.insert(.caseInsensitive) }
        if written.contains("d") { options.insert(.diacriticInsensitive) }
        if written.contains("n") { options = .normalized }
        let texts = ["", "st", "ST", "Stella 12", "stéphane", "STÉPHANE", "ste\u{301}phane", "Ångel", "A\u{30A}ngel", "ǅemal", "ſtar",
                     "straße", "STRASSE", "İstanbul", "ﬁst", "x\u{301}", "e\u{301}", "é", "\u{301}", "中文st", "tESt", "abcST",
                     // A mark, or other non-ASCII text, right after an ASCII prefix (BEGINSWITH decides on the prefix alone).
                     "ste\u{301}", "st\u{301}", "STE\u{301}X", "st\u{130}", "stéllä 12", "Stella 12\u{301}", "ST\u{338}", "stß", "ste",
                     // Latin text, BEGINSWITH deciding on its folded prefix.
                     "Ángel 5", "ÁNGEL", "ßtar", "SSTAR", "é\u{301}x", "éa\u{301}", "Straße", "ÉCLAIR", "e", "ǆx", "Ǆ\u{301}"]
        let needles = ["st", "ST", "é", "e\u{301}", "E", "\u{301}", "", "ß", "ss", "å", "ǆ", "ﬁ", "中", "t", "stella 12", "ste", "STE", "án", "ÁN", "sst", "éa", "ǅ"]
        for needle in needles {
            let prepared: [(PreparedNeedle, (String) -> Bool)] = [
                (PreparedNeedle(.equals, needle, options: options), { StringPredicates.equals($0, needle, options: options) }),
                (PreparedNeedle(.beginsWith, needle, options: options), { StringPredicates.beginsWith($0, needle, options: options) }),
                (PreparedNeedle(.endsWith, needle, options: options), { StringPredicates.endsWith($0, needle, options: options) }),
                (PreparedNeedle(.contains, needle, options: options), { StringPredicates.contains($0, needle, options: options) }),
            ]
            for text in texts + needles {
                for (needleTest, general) in prepared {
                    #expect(needleTest.matches(text) == general(text), "\(text.unicodeScalars.map(\.value)) \(needleTest.operation)\(written) \(needle.unicodeScalars.map(\.value))")
                }
            }
        }
    }

    struct Item: PredicateQueryable {
        var name: String
        var age: Int
        var score: Double
        var big: UInt64
        var flag: Bool
        var nickname: String?
        var tags: [String]
        var codes: Set<Int>
        var scores: [Double?]
        var grid: [[String]]
        var when: Date
        static let queryableKeys: QueryableKeys<Item> = [
            "name": .key(\.name), "age": .key(\.age), "score": .key(\.score), "big": .key(\.big), "flag": .key(\.flag),
            "nickname": .key(\.nickname), "tags": .key(\.tags), "codes": .key(\.codes), "scores": .key(\.scores),
            "grid": .key(\.grid), "when": .key(\.when), "twice": .computed { .int(Int64($0.age) * 2) },
        ]
    }

    static let items: [Item] = [
        Item(name: "Stella", age: 31, score: .nan, big: .max, flag: true, nickname: nil, tags: ["x", "y"], codes: [1, 30],
             scores: [nil, 30.5], grid: [["x"], []], when: Date(timeIntervalSinceReferenceDate: 0)),
        Item(name: "ste\u{301}phane", age: 30, score: 30, big: 30, flag: false, nickname: "É", tags: [], codes: [],
             scores: [], grid: [], when: Date(timeIntervalSinceReferenceDate: 30)),
        Item(name: "", age: -1, score: -0.0, big: 1 << 63, flag: true, nickname: "st", tags: ["X", "ǅ", ""], codes: [31],
             scores: [.infinity], grid: [["y", "z"]], when: .distantPast),
    ]

    /// A queryable struct evaluated in place (the plan) gives the answer of the same struct
    /// wrapped as a ``Value`` and read through the closure tree.
    @Test(arguments: [
        "age > 30", "age == 30.0", "age > 30 AND name BEGINSWITH[cd] 'st'", "NOT age < 0 OR flag == NO", "score != 30", "score >= -0.0",
        "big > 9223372036854775807", "big == 30", "flag == YES", "nickname == nil", "nickname ==[cd] 'e'", "name ENDSWITH 'phane'",
        "name ==[cd] 'STEPHANE'", "ANY tags == 'x'", "ANY tags ==[c] 'x'", "ALL tags != ''", "NONE tags BEGINSWITH 'ǅ'", "tags == 'x'",
        "tags CONTAINS 'x'", "ANY codes > 30", "ALL codes < 31", "NONE codes == 1", "codes == 31", "ANY scores == nil", "ALL scores > 30",
        "ANY grid == 'x'", "ANY grid.@count == 1", "ANY grid CONTAINS 'y'", "twice == 62", "missing == nil", "ANY missing == nil",
        "ALL missing == 1", "when < CAST(1, 'NSDate')", "TRUEPREDICATE AND age IN {30, 31}", "name MATCHES '[sS].*'", "name LIKE[c] 's*'",
        // Three operands (a list node, not a pair), decided early, late and never.
        "age >= 0 AND flag == YES AND ANY tags == 'x'", "age > 40 OR flag == NO OR nickname == nil", "age < -5 OR age > 100 OR flag == NO",
        "NOT (age > 30 AND flag == YES AND score > 0)",
    ])
    func queryableStructsInPlaceAgreeWithWrappedOnes(_ format: String) throws {
        let predicate = try CompiledPredicate(format: format)
        for item in Self.items {
            #expect(try predicate.evaluate(item) == predicate.evaluate(Value(item)), "\(format) on \(item.name)")
        }
        // The typed filter checks the keys first (an unknown key throws); then it agrees too.
        guard (try? Item.checkKeyPaths(of: predicate.predicate)) != nil else { return }
        #expect(try predicate.filter(Self.items).map(\.name) == Self.items.filter { try predicate.evaluate(Value($0)) }.map(\.name))
    }

    /// Which predicates take the plan: only keys of the object compared with constants. Those
    /// read dictionaries in place (the layout is this compiler's); the others have nothing to read.
    @Test func plansAreMadeForKeyComparisonsOnly() throws {
        #expect(ValueInPlace.dictionaryIsFirstWord)
        for format in ["age > 30", "ANY tags == 'x'", "NOT (a == 1 OR b BEGINSWITH[cd] 'x')", "TRUEPREDICATE", "x IN 'abc'"] {
            let predicate = try CompiledPredicate(format: format)
            #expect(predicate.plan != nil && predicate.readsDictionariesInPlace, "\(format)")
        }
        for format in ["a.b == 1", "a == b", "SELF == 1", "a == $v", "@count == 1", "a IN {1, 2}", "SUBQUERY(t, $x, $x == 1).@count > 0", "a + 1 > 2", "ANY a.b == 1"] {
            let predicate = try CompiledPredicate(format: format)
            #expect(predicate.plan == nil && !predicate.readsDictionariesInPlace, "\(format)")
        }
    }

    /// Element visitors: stored arrays and sets of convertible values get one; a to-many
    /// comparison (ANY, ALL, NONE) over the elements they visit in place answers as it does over
    /// the property's ``Value`` (the same elements in the same order).
    @Test func elementVisitorsAnswerAsThePropertysValue() throws {
        let table = Item.queryableKeys.table
        let names = table.keyNames
        #expect(names.indices.filter { table.elementVisitors[$0] != nil }.map { names[$0] } == ["tags", "codes", "scores", "grid"])
        var checked = 0
        for item in Self.items {
            guard case .object(let object) = Value(item) else { continue }
            for position in names.indices {
                guard let visit = table.elementVisitors[position] else { continue }
                let value = try object.value(forKey: names[position])
                let constants = (value.collectionElements ?? []) + [.string("zzz"), .int(30), .double(30.5), .null]
                for format in ["ANY %K == %@", "ALL %K == %@", "NONE %K == %@", "ANY %K != %@", "ALL %K < %@", "NONE %K BEGINSWITH[c] %@"] {
                    for constant in constants {
                        guard case .comparison(let c) = try PredicateNode(format: format, arguments: [names[position], Self.argument(constant)]).kind,
                              let comparison = try ComparisonCompiler(compiler: PredicateCompiler()).keyComparison(c) else { continue }
                        let inPlace = try withUnsafeBytes(of: item) { (bytes: UnsafeRawBufferPointer) throws -> Bool in
                            guard let address = bytes.baseAddress else { return false }
                            return try visit(address, comparison)
                        }
                        #expect(inPlace == (try comparison.evaluate(value: value)), "\(names[position]) \(format) \(constant)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 100)
    }

    /// Stored `Int`, `Double`, `String` and `[String]` properties are read by the plan from
    /// their offsets, without the table's reader closures: every comparison on every key of the
    /// root read in place answers as it does on the key's ``Value``.
    @Test func fieldsAnswerAsTheReaders() throws {
        let table = Item.queryableKeys.table
        let names = table.keyNames
        func kind(_ field: StoredPropertyReaders.Field) -> String {
            switch field {
            case .int: "int"
            case .double: "double"
            case .string: "string"
            case .strings: "strings"
            case .other: "other"
            }
        }
        #expect(names.indices.filter { kind(table.fields[$0]) != "other" }.map { "\(names[$0]) \(kind(table.fields[$0]))" }
                == ["name string", "age int", "score double", "tags strings"])
        var checked = 0
        for item in Self.items {
            guard case .object(let object) = Value(item) else { continue }
            for name in names {
                let value = try object.value(forKey: name)
                // (NaN is not a valid argument: the items' NaN is read, not compared with.)
                let constants = ((value.collectionElements ?? [value]) + [.string("st"), .int(30), .double(30.5), .null])
                    .filter { $0.double.map { !$0.isNaN } ?? true }
                for format in ["%K == %@", "%K != %@", "%K < %@", "%K >= %@", "%K BEGINSWITH[cd] %@", "ANY %K == %@", "ALL %K > %@", "NONE %K ==[c] %@"] {
                    for constant in constants {
                        guard case .comparison(let c) = try PredicateNode(format: format, arguments: [name, Self.argument(constant)]).kind,
                              let comparison = try ComparisonCompiler(compiler: PredicateCompiler()).keyComparison(c) else { continue }
                        let inPlace = try withUnsafeBytes(of: item) { (bytes: UnsafeRawBufferPointer) throws -> Bool in
                            guard let address = bytes.baseAddress else { return false }
                            return try QueryableRoot(address: address, table: table).satisfies(comparison)
                        }
                        #expect(inPlace == (try comparison.evaluate(value: value)), "\(name) \(format) \(constant)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 500)
    }

    /// A value as a format argument.
    static func argument(_ value: Value) -> Any? {
        switch value {
        case .string(let s): s
        case .int(let i): i
        case .double(let d): d
        case .bool(let b): b
        case .array(let elements), .set(let elements): elements.map(argument)
        default: nil
        }
    }
}
