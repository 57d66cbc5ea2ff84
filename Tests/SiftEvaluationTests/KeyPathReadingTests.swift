import Foundation
import Testing
@testable import SiftEvaluation

/// `value(forKeyPath:)` reads as predicates read.
@Suite("value(forKeyPath:)")
struct KeyPathReadingTests {
    let order: Value = [
        "id": 7,
        "customer": ["name": "Ann", "address": ["city": "Oslo"]],
        "items": [["name": "pen", "price": 2, "tags": ["a", "b"]], ["name": "ink", "price": 5, "tags": ["c"]], ["name": "pad"]],
    ]

    @Test func dictionariesFollowToOneAndToManyPaths() throws {
        #expect(try order.value(forKeyPath: "id").int == 7)
        #expect(try order.value(forKeyPath: "customer.name").string == "Ann")
        #expect(try order.value(forKeyPath: "customer.address.city").string == "Oslo")
        #expect(try order.value(forKeyPath: "items.name").description == #"["pen","ink","pad"]"#)
        // A missing key is nil, also inside a to-many path (one per element).
        #expect(try order.value(forKeyPath: "missing").isNull)
        #expect(try order.value(forKeyPath: "customer.missing.deeper").isNull)
        #expect(try order.value(forKeyPath: "items.price").description == "[2,5,null]")
        // Collections met on the way flatten into one.
        #expect(try order.value(forKeyPath: "items.tags").description == #"["a","b","c",null]"#)
        let dictionary = try #require(order.dictionary)
        #expect(try dictionary.value(forKeyPath: "customer.address.city").string == "Oslo")
    }

    @Test func collectionOperators() throws {
        #expect(try order.value(forKeyPath: "items.@count").int == 3)
        #expect(try order.value(forKeyPath: "items.@sum.price").int == 7)
        #expect(try order.value(forKeyPath: "items.@max.price").int == 5)
        #expect(try order.value(forKeyPath: "items.@avg.price").double == 3.5)
        #expect(try order.value(forKeyPath: "items.@distinctUnionOfObjects.name").description == #"["pen","ink","pad"]"#)
    }

    @Test func answersAgreeWithTheEvaluator() throws {
        for path in ["id", "customer.name", "items.name", "items.@count", "items.@sum.price", "items.tags", "nothing.here"] {
            let expected = try CompiledExpression(format: path).evaluate(order)
            let read = try order.value(forKeyPath: path)
            #expect(ValueComparison.equals(read, expected) || (read.isNull && expected.isNull), "\(path)")
            #expect(read.description == expected.description, "\(path)")
        }
    }

    @Test func queryableObjectsFollowTheirKeys() throws {
        let movie = Value(QueryableFixtures.movies[0])
        #expect(try movie.value(forKeyPath: "title").string == "Arrival")
        #expect(try movie.value(forKeyPath: "director.name").string == "Denis")
        #expect(try movie.value(forKeyPath: "tags.name").description == #"["sci-fi","drama"]"#)
        #expect(try movie.value(forKeyPath: "tags.@count").int == 2)
        let object = try #require(movie.object)
        #expect(try object.value(forKeyPath: "director.name").string == "Denis")
    }

    @Test func emptyKeysAreErrors() {
        for path in ["", "a..b", "a."] {
            #expect(throws: EvaluationError.self, "\(path)") { try order.value(forKeyPath: path) }
        }
    }
}
