import Foundation
import Testing
@testable import SiftEvaluation
import SiftLanguage

/// Dictionaries of one shape share their keys (``DictionaryShape``) and keep their values in one
/// allocation; how a dictionary was built must not show in what it holds, in copy on write, in
/// equality, or in the positions a compiled key remembers per shape (``KeySlotCache``).
@Suite("Dictionary shapes: shared keys, copy on write, remembered key positions")
struct DictionaryShapeTests {
    static func record(_ name: String, _ age: Int64, shapes: inout DictionaryShapes) -> ValueDictionary {
        shapes.dictionary([("name", .string(name)), ("age", .int(age))])
    }

    @Test func dictionariesOfOneShapeShareKeysAndKeepTheirOwnValues() {
        var shapes = DictionaryShapes()
        let ann = Self.record("Ann", 31, shapes: &shapes)
        let bob = Self.record("Bob", 29, shapes: &shapes)
        let other = shapes.dictionary([("age", .int(1)), ("name", .string("Cy"))])
        #expect(ann.shape === bob.shape)
        #expect(other.shape !== ann.shape)
        #expect(ann["name"]?.string == "Ann" && ann["age"]?.int == 31)
        #expect(bob["name"]?.string == "Bob" && bob["age"]?.int == 29)
        #expect(other.keys == ["age", "name"] && other["name"]?.string == "Cy")
        #expect(bob.keys == ["name", "age"])
        #expect(bob.values.map(\.int) == [nil, 29])
        #expect(bob.pairs.map(\.0) == ["name", "age"])
        // A shape used again after another is still found.
        let cy = Self.record("Cy", 5, shapes: &shapes)
        #expect(cy.shape === ann.shape)
    }

    @Test func changingOneRecordLeavesTheOthersOfItsShape() {
        var shapes = DictionaryShapes()
        var ann = Self.record("Ann", 31, shapes: &shapes)
        let bob = Self.record("Bob", 29, shapes: &shapes)
        let annBefore = ann

        ann["age"] = .int(32)
        #expect(ann["age"]?.int == 32)
        #expect(bob["age"]?.int == 29)
        #expect(annBefore["age"]?.int == 31)
        #expect(ann.shape === bob.shape, "changing a value keeps the shape")

        ann["city"] = .string("Oslo")
        #expect(ann.keys == ["name", "age", "city"])
        #expect(bob.keys == ["name", "age"] && bob["city"] == nil)
        #expect(annBefore.keys == ["name", "age"])
        #expect(ann.shape !== bob.shape)

        var bobChanged = bob
        bobChanged["name"] = nil
        #expect(bobChanged.keys == ["age"] && bobChanged["age"]?.int == 29 && bobChanged.count == 1)
        #expect(bob.keys == ["name", "age"] && bob["name"]?.string == "Bob")
        #expect(ann.keys == ["name", "age", "city"] && ann["name"]?.string == "Ann")
        let later = Self.record("Di", 40, shapes: &shapes)
        #expect(later.shape === bob.shape && later.keys == ["name", "age"])
    }

    @Test func aShapeChangedInPlaceTakesANewIdentity() {
        var d = ValueDictionary([("x", .int(1)), ("age", .int(40))])
        // Not a reference (which would make the shape shared, and copied on change).
        let shape = ObjectIdentifier(d.shape), identity = d.shape.identity
        d["x"] = nil
        #expect(ObjectIdentifier(d.shape) == shape, "the only holder changes its shape in place")
        #expect(d.shape.identity != identity)
        let removed = d.shape.identity
        d["y"] = .int(2)
        #expect(d.shape.identity != removed)
        #expect(d.keys == ["age", "y"] && d["age"]?.int == 40 && d["y"]?.int == 2)
    }

    @Test func sharedAndOwnDictionariesOfTheSamePairsAreEqual() {
        var shapes = DictionaryShapes()
        _ = Self.record("Zed", 1, shapes: &shapes)
        let shared = Self.record("Ann", 31, shapes: &shapes)
        let own = ValueDictionary([("name", .string("Ann")), ("age", .int(31))])
        let reordered = ValueDictionary([("age", .int(31)), ("name", .string("Ann"))])
        let different = ValueDictionary([("name", .string("Ann")), ("age", .int(30))])
        #expect(shared.shape !== own.shape)
        for (a, b) in [(shared, own), (own, shared), (shared, reordered), (reordered, shared)] {
            #expect(ValueComparison.equals(.dictionary(a), .dictionary(b), options: []))
        }
        #expect(!ValueComparison.equals(.dictionary(shared), .dictionary(different), options: []))
        #expect(shared.keys == own.keys)
        #expect(ValueText.text(.dictionary(shared)) == ValueText.text(.dictionary(own)))
        // What the language hashes and compares on is the values (DISTINCT, IN): the same.
        #expect(shared.values.map(ValueText.text) == own.values.map(ValueText.text))
    }

    @Test func largeDictionariesAreIndexedAndStayRight() {
        let keys = (0..<40).map { "key\($0)" }
        var shapes = DictionaryShapes()
        let first = shapes.dictionary(keys.enumerated().map { ($1, .int(Int64($0))) })
        var second = shapes.dictionary(keys.enumerated().map { ($1, .int(Int64($0 * 10))) })
        #expect(first.shape === second.shape)
        #expect(first.shape.index != nil)
        for (i, key) in keys.enumerated() {
            #expect(first[key]?.int == i)
            #expect(second[key]?.int == i * 10)
        }
        for key in keys.prefix(35) { second[key] = nil }
        #expect(second.keys == Array(keys.suffix(5)))
        #expect(second.shape.index == nil)
        #expect(second["key37"]?.int == 370 && second["key0"] == nil)
        for key in keys.prefix(20) { second[key] = .string(key) }
        #expect(second.count == 25 && second["key3"]?.string == "key3" && second["key39"]?.int == 390)
        #expect(first.count == 40 && first["key3"]?.int == 3)
        // Repeated keys among many keep the first place and the last value.
        let repeated = ValueDictionary(keys.map { ($0, .int(1)) } + [("key5", .int(2))])
        #expect(repeated.count == 40 && repeated["key5"]?.int == 2 && repeated.keys == keys)
    }

    @Test func jsonObjectsShareShapesAndRepeatedKeysKeepTheirRule() throws {
        let value = try Value(json: #"[{"a": 1, "b": 2}, {"a": 3, "b": 4}, {"a": 5, "b": 6, "a": 7}, {"b": 8, "a": 9}]"#)
        guard case .array(let records) = value else { Issue.record("not an array"); return }
        let dictionaries = records.compactMap(\.dictionary)
        #expect(dictionaries.count == 4)
        #expect(dictionaries[0].shape === dictionaries[1].shape)
        #expect(dictionaries[2].keys == ["a", "b"] && dictionaries[2]["a"]?.int == 7 && dictionaries[2]["b"]?.int == 6)
        #expect(dictionaries[3].keys == ["b", "a"] && dictionaries[3]["a"]?.int == 9)
        #expect(dictionaries[1]["a"]?.int == 3 && dictionaries[1]["b"]?.int == 4)
    }

    @Test func convertedRecordsShareShapes() throws {
        let value = try Value(any: [["name": "Ann", "age": 31], ["name": "Bob", "age": 29]] as [[String: Any]])
        guard case .array(let records) = value else { Issue.record("not an array"); return }
        let dictionaries = records.compactMap(\.dictionary)
        #expect(dictionaries.count == 2)
        #expect(dictionaries[0].shape === dictionaries[1].shape)
        #expect(dictionaries[1]["name"]?.string == "Bob" && dictionaries[0]["age"]?.int == 31)
    }

    /// Records whose key sits at different positions, alternating: a position remembered for
    /// the wrong shape would read the other key's value and give the other answer.
    @Test(arguments: ["age > 30", "age > 30 AND SELF != nil", "ANY age > 30", "NOT age <= 30"])
    func rememberedPositionsFollowTheShape(_ format: String) throws {
        let predicate = try CompiledPredicate(format: format)
        var shapes = DictionaryShapes()
        let ageFirst = shapes.dictionary([("age", .int(40)), ("other", .int(10))])        // true
        let ageSecond = shapes.dictionary([("other", .int(40)), ("age", .int(10))])       // false
        let noAge = shapes.dictionary([("other", .int(40))])                               // false
        let ageThird = shapes.dictionary([("x", .int(40)), ("y", .int(40)), ("age", .int(31))]) // true
        let records = [ageFirst, ageSecond, ageFirst, noAge, ageSecond, ageThird, noAge, ageFirst, ageThird, ageSecond]
        for _ in 0..<3 {
            for record in records {
                // A missing age is nil: not > 30, and not <= 30 either (so NOT holds).
                let expected = record["age"]?.int.map { $0 > 30 } ?? format.hasPrefix("NOT")
                #expect(try predicate.evaluate(.dictionary(record)) == expected, "\(format) on \(record.keys)")
            }
        }
    }

    /// A shape changed in place keeps its object but not its identity: a position remembered
    /// before the change is not used after it.
    @Test func rememberedPositionsFollowAShapeChangedInPlace() throws {
        let predicate = try CompiledPredicate(format: "age > 30")
        var d = ValueDictionary([("x", .int(1)), ("age", .int(40))])
        #expect(try predicate.evaluate(.dictionary(d)))
        let shape = ObjectIdentifier(d.shape)
        d["x"] = nil
        d["y"] = .int(5)
        #expect(ObjectIdentifier(d.shape) == shape)
        #expect(d.keys == ["age", "y"])
        #expect(try predicate.evaluate(.dictionary(d)))
        d["age"] = nil
        d["z"] = .int(50)
        #expect(ObjectIdentifier(d.shape) == shape)
        #expect(try !predicate.evaluate(.dictionary(d)))
    }

    @Test func theCacheAnswersPerShape() {
        let cache = KeySlotCache()
        let key = PreparedKey("age")
        let a = DictionaryShape(distinctKeys: ["age", "name"])
        let b = DictionaryShape(distinctKeys: ["name", "age"])
        let c = DictionaryShape(distinctKeys: ["name"])
        for _ in 0..<3 {
            #expect(cache.position(of: key, in: a) == 0)
            #expect(cache.position(of: key, in: a) == 0)
            #expect(cache.position(of: key, in: b) == 1)
            #expect(cache.position(of: key, in: b) == 1)
            #expect(cache.position(of: key, in: c) == nil)
            #expect(cache.position(of: key, in: c) == nil)
        }
    }

    /// The view of `value`'s dictionary as the evaluator makes it.
    static func view(of value: Value) -> BorrowedDictionary? {
        withUnsafePointer(to: value) { ValueInPlace.dictionary(at: $0, layoutIsKnown: ValueInPlace.dictionaryIsFirstWord) }
    }

    /// The compiled plan reads a dictionary value in place, through a view made from the value's
    /// bits: on this compiler the view must be available (else the plan would quietly take the
    /// slower path) and see the very storage of the dictionary, for every case of `Value` it
    /// refuses the others, and the answers match the closure tree's on dictionaries read both ways.
    @Test func dictionaryValuesAreReadInPlace() throws {
        let dictionaries = [ValueDictionary(), ValueDictionary([("age", .int(40))]),
                            ValueDictionary((0..<40).map { ("key\($0)", .int(Int64($0))) } + [("age", .int(7))])]
        for dictionary in dictionaries {
            let value = Value.dictionary(dictionary)
            let view = try #require(Self.view(of: value))
            #expect(view.head == dictionary.storageReference.head)
            #expect(view.elements == dictionary.storageReference.elements)
            #expect(view.head.pointee.count == dictionary.count)
        }
        let others: [Value] = [.null, .bool(true), .int(3), .double(2), .decimal(1), .string("a much longer string than sixteen bytes"),
                               .date(Date()), .data(Data([1, 2])), .uuid(UUID()), .array([.dictionary(dictionaries[1])]),
                               .set([.int(1)]), .object(ObjectReference("x"))]
        for value in others { #expect(Self.view(of: value) == nil, "\(value.kindName)") }
        // Arrays and sets are read in place too: the very elements, and nothing for the other kinds.
        #expect(ValueInPlace.dictionaryIsFirstWord && ValueInPlace.arrayStorageIsKnown)
        var roomy: [Value] = [.int(7)]
        roomy.reserveCapacity(100)
        for elements in [[], [Value.int(1)], [.string("a much longer string than sixteen bytes"), .null, .dictionary(dictionaries[1])],
                         roomy, Array([Value.int(1), .int(2), .int(3)].dropFirst())] {
            for value in [Value.array(elements), .set(elements)] {
                let read = try withUnsafePointer(to: value) { (address: UnsafePointer<Value>) throws(EvaluationError) -> [Value]? in
                    try ValueInPlace.withElements(at: address, layoutIsKnown: true) { (buffer: UnsafeBufferPointer<Value>) -> [Value] in Array(buffer) }
                }
                #expect(read.map { "\(Value.array($0))" } == "\(Value.array(elements))", "\(value)")
            }
        }
        for value in others where value.collectionElements == nil {
            let read = try withUnsafePointer(to: value) { (address: UnsafePointer<Value>) throws(EvaluationError) -> Bool? in
                try ValueInPlace.withElements(at: address, layoutIsKnown: true) { (_: UnsafeBufferPointer<Value>) -> Bool in true }
            }
            #expect(read == nil, "\(value.kindName)")
        }
        let predicate = try CompiledPredicate(format: "age > 30 AND NOT age == 41")
        let body = try PredicateCompiler().compile(predicate.predicate)
        for dictionary in dictionaries {
            var frame = Frame(variables: [:])
            let expected = try body(.dictionary(dictionary), &frame)
            #expect(try predicate.evaluate(.dictionary(dictionary)) == expected)
            #expect(try dictionary.withBorrowed { (view: BorrowedDictionary) throws(EvaluationError) -> Bool? in try predicate.plan?.dictionaryTest(view) } == expected)
        }
    }
}
