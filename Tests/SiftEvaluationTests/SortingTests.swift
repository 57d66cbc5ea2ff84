import Foundation
import Testing
@testable import SiftEvaluation
import SiftLanguage

@Suite("Sorting")
struct SortingTests {
    // SEED-APPS.md §5 (movies): titles, ratings (The Star has none), release years.
    static let movies: [Value] = [
        ("Star Wars", 8.6, 1977), ("star trek", 7.9, 2009), ("Stár Trek Beyond", 7.0, 2016), ("Starship Troopers", 7.3, 1997),
        ("The Star", nil, 2017), ("Lone Star", 7.5, 1996), ("Alien", 8.5, 1979), ("Aliens", 8.4, 1986), ("Arrival", 7.9, 2016),
    ].map { (title: String, rating: Double?, year: Int) in val(["title": title, "rating": rating, "releaseYear": year] as [String: Any?]) }

    func titles(_ keys: String) throws -> [String] {
        let order = try Sorting.sortedIndices(Self.movies, by: try Sorting.parseSortKeys(keys))
        return order.map { ValueText.text(try! CompiledExpression(format: "title").evaluate(Self.movies[$0])) }
    }

    @Test func titleAscendingIsCodePointOrder() throws {
        // M6: upper-case before lower-case, accented after both.
        #expect(try titles("title") == ["Alien", "Aliens", "Arrival", "Lone Star", "Star Wars", "Starship Troopers", "Stár Trek Beyond", "The Star", "star trek"])
    }

    @Test func nilSortsLastDescendingAndTiesKeepInputOrder() throws {
        // M5: rating↓ then releaseYear↑... (here rating↓ alone: ties keep input order).
        #expect(try titles("rating DESC") == ["Star Wars", "Alien", "Aliens", "star trek", "Arrival", "Lone Star", "Starship Troopers", "Stár Trek Beyond", "The Star"])
        #expect(try titles("rating ASC").first == "The Star")
    }

    @Test func comparators() throws {
        let names = ["Work", "errands", "Personal"].map { val(["name": $0] as [String: Any?]) }
        func sorted(_ spec: String) throws -> [String] {
            try Sorting.sortedIndices(names, by: try Sorting.parseSortKeys(spec)).map { ["Work", "errands", "Personal"][$0] }
        }
        // N8.
        #expect(try sorted("name") == ["Personal", "Work", "errands"])
        #expect(try sorted("name ASC USING caseInsensitiveCompare") == ["errands", "Personal", "Work"])
        let files = ["file10", "file2", "File1"].map { val(["f": $0] as [String: Any?]) }
        let order = try Sorting.sortedIndices(files, by: try Sorting.parseSortKeys("f using localizedStandardCompare"))
        #expect(order == [2, 1, 0])
    }

    @Test func mixedKindsNeverTie() {
        #expect(Sorting.compare(.int(1), .string("1"), comparator: .compare) == -1)
        #expect(Sorting.compare(.null, .int(0), comparator: .compare) == -1)
        #expect(Sorting.compare(.double(1.5), .int(1), comparator: .compare) == 1)
    }

    @Test func parseSortKeys() throws {
        #expect(try Sorting.parseSortKeys("a, b DESC, c asc using caseInsensitiveCompare") == [
            SortKey("a"), SortKey("b", ascending: false), SortKey("c", comparator: .caseInsensitiveCompare),
        ])
        #expect(try Sorting.parseSortKeys("tags.@count DESC") == [SortKey("tags.@count", ascending: false)])
        #expect(throws: SortSpecificationError.self) { try Sorting.parseSortKeys("a UP") }
        #expect(throws: SortSpecificationError.self) { try Sorting.parseSortKeys("a, ") }
        do {
            _ = try Sorting.parseSortKeys("a USING caseInsensitveCompare")
        } catch {
            #expect(error.description.contains("did you mean 'caseInsensitiveCompare'"))
        }
    }
}

@Suite("Sections")
struct SectionTests {
    @Test func movieSectionsByYear() throws {
        // M7: releaseYear↓, title↑, sections by releaseYear.
        let movies = SortingTests.movies
        let order = try Sorting.sortedIndices(movies, by: try Sorting.parseSortKeys("releaseYear DESC, title"))
        let sections = try SectionedResults(movies, order: order, sectionKeyPath: "releaseYear")
        #expect(sections.sections.map(\.name) == ["2017", "2016", "2009", "1997", "1996", "1986", "1979", "1977"])
        #expect(sections.sections.map(\.numberOfObjects) == [1, 2, 1, 1, 1, 1, 1, 1])
        #expect(sections.sections[1].objectIndices.map { ValueText.text(try! CompiledExpression(format: "title").evaluate(movies[$0])) } == ["Arrival", "Stár Trek Beyond"])
        #expect(sections.sectionIndexTitles == ["2", "2", "2", "1", "1", "1", "1", "1"])
        #expect(sections.warning == nil)
    }

    @Test func nilAndEmptyShareASectionAndTitlesUpperCase() throws {
        let notes = [nil, "Work", "", "errands", "Work"].map { val(["c": $0] as [String: Any?]) }
        let sections = try SectionedResults(notes, order: Array(notes.indices), sectionKeyPath: "c")
        #expect(sections.sections.map(\.name) == ["", "Work", "errands"])
        #expect(sections.sections.map(\.indexTitle) == ["", "W", "E"])
        #expect(sections.sections[0].objectIndices == [0, 2])
        #expect(sections.warning != nil)
    }

    @Test func sectionNamesOfEveryKind() {
        #expect(ValueText.text(.int(-3)) == "-3")
        #expect(ValueText.text(.double(2.5)) == "2.5")
        #expect(ValueText.text(.bool(true)) == "1")
        #expect(ValueText.text(.date(Date(timeIntervalSinceReferenceDate: 0))) == "2001-01-01T00:00:00Z")
        #expect(ValueText.text(.null) == "")
    }
}

/// Swift values read through key paths.
@Suite("Swift types")
struct SwiftTypeTests {
    struct Tag: PredicateQueryable {
        var name: String
        static let queryableKeys: QueryableKeys<Tag> = ["name": .key(\.name)]
    }
    struct Movie: PredicateQueryable {
        var title: String
        var year: Int
        var rating: Double?
        var tags: [Tag]
        var director: Tag?
        static let queryableKeys: QueryableKeys<Movie> = [
            "title": .key(\.title), "year": .key(\.year), "rating": .key(\.rating), "tags": .key(\.tags),
            "director": .key(\.director),
        ]
    }

    let movie = Movie(title: "Arrival", year: 2016, rating: nil, tags: [Tag(name: "sci-fi"), Tag(name: "drama")], director: Tag(name: "Denis"))

    @Test func keyPathsReadSwiftValues() throws {
        let value = Value(movie)
        for (format, expected) in [
            ("title BEGINSWITH 'Arr' AND year > 2000", true), ("rating == nil", true), ("ANY tags.name == 'drama'", true),
            ("tags.@count == 2", true), ("director.name == 'Denis'", true), ("unknown == nil", true), ("tags[LAST].name == 'drama'", true),
        ] {
            #expect(try CompiledPredicate(format: format).evaluate(value) == expected, "\(format)")
        }
    }

    @Test func reflectionFallback() throws {
        struct Plain { var name: String; var size: Int?; var parts: [Int] }
        let value = Value(reflecting: Plain(name: "x", size: nil, parts: [1, 2]))
        #expect(try CompiledPredicate(format: "name == 'x' AND #size == nil AND parts.@sum == 3").evaluate(value))
    }
}
