import Foundation
import Testing
import SiftEvaluation

// The README's in-memory snippet ("Evaluate in memory"), as written there, so it cannot rot:
// the types at file scope, the statements in the test.

struct Tag: PredicateQueryable {
    var name: String
    static let queryableKeys: QueryableKeys<Tag> = ["name": .key(\.name)]
}

struct Person: PredicateQueryable {
    var name: String
    var age: Int
    var city: String
    var tags: [Tag]
    static let queryableKeys: QueryableKeys<Person> = [
        "name": .key(\.name), "age": .key(\.age), "city": .key(\.city), "tags": .key(\.tags),
    ]
}

@Suite("README snippets")
struct ReadmeSnippetTests {
    @Test func inMemorySnippet() throws {
        // --- README: begin ---
        let p = try CompiledPredicate(format: "age >= %@ AND ANY tags.name ==[c] %@", 18, "Swift")

        // Schemaless data: JSON text, [String: Any], or Swift literals.
        let json = try JSONParser.parse(#"{"age": 30, "tags": [{"name": "swift"}]}"#)
        print(try p.evaluate(json))                              // true
        print(try p.evaluate(try Value(any: ["age": 12, "tags": []])))  // false
        print(try p.evaluate(["age": 40, "tags": [["name": "Swift"]]]))  // true

        // Filter, sort and section your own types: they go in and come out as themselves.
        let people = [
            Person(name: "Ann", age: 30, city: "Oslo", tags: [Tag(name: "swift")]),
            Person(name: "Bo", age: 12, city: "Bergen", tags: [Tag(name: "swift")]),
            Person(name: "Cy", age: 45, city: "Bergen", tags: [Tag(name: "SWIFT"), Tag(name: "linux")]),
        ]
        let adults = try p.filter(people)                     // [Person]: Ann, Cy
        let ordered = try adults.sorted(by: "city, age DESC, name USING localizedStandardCompare")
        let sections = try ordered.sectioned(by: "city")      // [ObjectSection<Person>]: Bergen, Oslo
        let names = try people.filter("name BEGINSWITH %@", "A").map(\.name)   // ["Ann"]
        // people.filter("nmae == 'Ann'") throws: unknown key 'nmae' on Person; did you mean 'name'?
        // --- README: end ---

        #expect(try p.evaluate(json))
        #expect(try !p.evaluate(try Value(any: ["age": 12, "tags": []])))
        #expect(try p.evaluate(["age": 40, "tags": [["name": "Swift"]]]))
        #expect(adults.map(\.name) == ["Ann", "Cy"])
        #expect(ordered.map(\.name) == ["Cy", "Ann"])
        #expect(sections.map(\.name) == ["Bergen", "Oslo"])
        #expect(sections.map { $0.objects.map(\.name) } == [["Cy"], ["Ann"]])
        #expect(names == ["Ann"])
        #expect(throws: EvaluationError.self) { try people.filter("nmae == 'Ann'") }
    }
}
