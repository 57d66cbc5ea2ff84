import Foundation
import Testing
@testable import SiftEvaluation

/// Values from Swift literals, typed accessors, and how values print.
@Suite("Value literals, accessors and descriptions")
struct ValueLiteralTests {
    @Test func literalsMakeTheirKinds() {
        let values: [Value] = ["x", 3, 2.5, true, nil, [1, "a"], ["k": 1]]
        #expect(values.map(\.kindName) == ["string", "integer", "double", "boolean", "nil", "array", "dictionary"])
        let record: Value = ["title": "Arrival", "year": 2016, "rating": nil, "tags": ["sci-fi", "drama"]]
        guard case .dictionary(let dictionary) = record else {
            Issue.record("not a dictionary: \(record)")
            return
        }
        #expect(dictionary.keys == ["title", "year", "rating", "tags"])
        #expect(dictionary["year"]?.int == 2016)
        #expect(dictionary["rating"]?.isNull == true)
        #expect(dictionary["tags"]?.array?.compactMap(\.string) == ["sci-fi", "drama"])
        let literal: ValueDictionary = ["a": 1, "b": "two"]
        #expect(literal.keys == ["a", "b"])
        // A repeated key keeps its first place and its last value.
        let repeated: Value = ["a": 1, "b": 2, "a": 3]
        #expect(repeated.description == #"{"a":3,"b":2}"#)
    }

    @Test func literalsEvaluate() throws {
        let predicate = try CompiledPredicate(format: "age >= 18 AND ANY tags ==[c] 'swift'")
        #expect(try predicate.evaluate(["age": 30, "tags": ["Swift", "Linux"]]))
        #expect(try !predicate.evaluate(["age": 12, "tags": []]))
    }

    @Test func accessorsReadTheirKindAndNumbersWiden() {
        let date = Date(timeIntervalSince1970: 1_600_000_000)
        let uuid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
        let decimal = Decimal(string: "1.25") ?? 0
        #expect(Value.string("a").string == "a")
        #expect(Value.int(7).string == nil)
        #expect(Value.int(7).int == 7)
        #expect(Value.int(7).int64 == 7)
        #expect(Value.double(7).int == nil)
        #expect(Value.string("7").int == nil)
        #expect(Value.int(7).double == 7.0)
        #expect(Value.double(2.5).double == 2.5)
        #expect(Value.decimal(decimal).double == 1.25)
        #expect(Value.string("2.5").double == nil)
        #expect(Value.decimal(decimal).decimal == decimal)
        #expect(Value.int(3).decimal == Decimal(3))
        #expect(Value.double(2.5).decimal == nil)
        #expect(Value.bool(true).bool == true)
        #expect(Value.int(1).bool == nil)
        #expect(Value.date(date).date == date)
        #expect(Value.data(Data([1, 2])).data == Data([1, 2]))
        #expect(Value.uuid(uuid).uuid == uuid)
        #expect(Value.array([1, 2]).array?.compactMap(\.int) == [1, 2])
        #expect(Value.set([1]).array?.compactMap(\.int) == [1])
        #expect(Value.string("x").array == nil)
        #expect(Value.dictionary(["a": 1]).dictionary?["a"]?.int == 1)
        #expect(Value.null.dictionary == nil)
        #expect(Value.null.isNull)
        #expect(Value.null.string == nil)
    }

    @Test func valuesPrintAsJSON() {
        let date = Date(timeIntervalSince1970: 0)
        #expect(Value.string("a \"b\"").description == #""a \"b\"""#)
        #expect(Value.int(3).description == "3")
        #expect(Value.double(2).description == "2.0")
        #expect(Value.bool(false).description == "false")
        #expect(Value.null.description == "null")
        #expect(Value.date(date).description == #"{"$date":"1970-01-01T00:00:00Z"}"#)
        #expect(Value.set([1, 2]).description == "[1,2]")
        let dictionary: ValueDictionary = ["title": "x", "year": 2016, "tags": ["a", nil]]
        #expect(dictionary.description == #"{"title":"x","year":2016,"tags":["a",null]}"#)
        #expect("\(dictionary)" == #"{"title":"x","year":2016,"tags":["a",null]}"#)
        #expect(String(describing: Value.dictionary(dictionary)) == #"{"title":"x","year":2016,"tags":["a",null]}"#)
    }

    @Test func queryableValuesPrintTheirKeys() {
        let movie = QueryableFixtures.Movie(title: "Arrival", year: 2016, rating: nil,
                                            tags: [.init(name: "sci-fi")], director: .init(name: "Denis"))
        #expect(Value(movie).description == #"{"title":"Arrival","year":2016,"rating":null,"tags":[{"name":"sci-fi"}],"director":{"name":"Denis"}}"#)
    }
}
