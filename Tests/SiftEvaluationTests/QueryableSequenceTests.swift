import Foundation
import Testing
@testable import SiftEvaluation

/// Filtering, sorting and sectioning PredicateQueryable values gives the values themselves,
/// and their keys are checked first.
@Suite("Typed filter, sorted and sectioned")
struct QueryableSequenceTests {
    typealias Person = QueryableFixtures.Person
    let people = [
        Person("Ann", 34, "Oslo"), Person("Bo", 17, "Bergen"), Person("Cy", 51, "Oslo", friends: [Person("Ann", 34, "Oslo")]),
        Person("Di", 29, "Bergen", extra: ["team": "red"]),
    ]

    @Test func filterGivesTheValues() throws {
        let adults: [Person] = try people.filter("age >= %@", 18)
        #expect(adults.map(\.name) == ["Ann", "Cy", "Di"])
        let predicate = try CompiledPredicate(format: "city == 'Oslo' AND ANY friends.name == 'Ann'")
        #expect(try people.filter(predicate) == [people[2]])
        #expect(try predicate.filter(people).map(\.name) == ["Cy"])
        // Keys past an open dictionary or a computed key are not checked.
        #expect(try people.filter("extra.team == 'red'").map(\.name) == ["Di"])
        #expect(try people.filter("initial IN {'A', 'B'}").map(\.name) == ["Ann", "Bo"])
        #expect(try QueryableFixtures.movies.filter("ANY tags.name == 'sci-fi' AND director.name != nil").map(\.title) == ["Arrival", "Alien"])
        #expect(try QueryableFixtures.movies.filter("SUBQUERY(tags, $t, $t.name BEGINSWITH 'd').@count > 0").map(\.title) == ["Arrival"])
    }

    @Test func sortedGivesTheValues() throws {
        #expect(try people.sorted(by: "city, age DESC").map(\.name) == ["Di", "Bo", "Cy", "Ann"])
        #expect(try people.sorted(by: [SortKey("name", ascending: false)]).map(\.name) == ["Di", "Cy", "Bo", "Ann"])
        #expect(try people.sorted(by: "friends.@count DESC, name").map(\.name) == ["Cy", "Ann", "Bo", "Di"])
    }

    @Test func sectionedGivesTheValues() throws {
        let sections = try people.sorted(by: "city, name").sectioned(by: "city")
        #expect(sections.map(\.name) == ["Bergen", "Oslo"])
        #expect(sections.map(\.indexTitle) == ["B", "O"])
        #expect(sections.map { $0.objects.map(\.name) } == [["Bo", "Di"], ["Ann", "Cy"]])
        #expect(sections.map(\.numberOfObjects) == [2, 2])
    }

    @Test func unknownKeysAreErrorsOfThePredicate() throws {
        func message(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch let error as EvaluationError {
                #expect(error.code == .unknownKey)
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(message { _ = try people.filter("nmae == 'Ann'") } == "unknown key 'nmae' on Person; did you mean 'name'?")
        #expect(message { _ = try people.filter("age > 1 AND ANY friends.cty == 'Oslo'") } == "unknown key 'cty' on Person; did you mean 'city'?")
        #expect(message { _ = try people.filter("zzzzzz == 1") } == "unknown key 'zzzzzz' on Person")
        #expect(message { _ = try QueryableFixtures.movies.filter("director.nam == 'x'") } == "unknown key 'nam' on Tag; did you mean 'name'?")
        #expect(message { _ = try QueryableFixtures.movies.filter("tags.@max.nme == 'x'") } == "unknown key 'nme' on Tag; did you mean 'name'?")
        #expect(message { _ = try QueryableFixtures.movies.filter("SUBQUERY(tags, $t, $t.nam == 'x').@count > 0") } == "unknown key 'nam' on Tag; did you mean 'name'?")
        #expect(message { _ = try QueryableFixtures.movies.filter("tags[FIRST].nam == 'x'") } == "unknown key 'nam' on Tag; did you mean 'name'?")
        #expect(message { _ = try people.sorted(by: "agee") } == "unknown key 'agee' on Person; did you mean 'age'?")
        #expect(message { _ = try people.sectioned(by: "ctiy") } == "unknown key 'ctiy' on Person; did you mean 'city'?")
        // The untyped path still reads an unknown key as nil (schemaless).
        #expect(try CompiledPredicate(format: "nmae == nil").evaluate(Value(people[0])))
    }
}
