import Foundation
import Testing
@testable import SiftLanguage

@Suite struct FetchStatementTests {
    static let canonical: [(String, String)] = [
        ("Note", "FETCH Note"),
        ("fetch Note where title beginswith[cd] 'my' sort by updatedAt desc",
         #"FETCH Note WHERE title BEGINSWITH[cd] "my" SORT BY updatedAt DESC"#),
        ("Note ORDER BY category.name, updatedAt DESC SECTION BY category.name LIMIT 2 OFFSET 1",
         "FETCH Note SORT BY category.name ASC, updatedAt DESC SECTION BY category.name LIMIT 2 OFFSET 1"),
        ("Category SORT BY name USING caseinsensitivecompare",
         "FETCH Category SORT BY name ASC USING caseInsensitiveCompare"),
        ("Item WHERE children.@count >= 2 SORT BY title", "FETCH Item WHERE children.@count >= 2 SORT BY title ASC"),
        ("COUNT Potato", "COUNT Potato"),
        ("count Album where artist.name == 'Architects'", #"COUNT Album WHERE artist.name == "Architects""#),
        ("SELECT DISTINCT genre FROM Album", "SELECT DISTINCT genre FROM Album"),
        ("select artist.name as artist, count:(title) AS n from Album where genre != nil group by artist.name having n > 1 order by n desc limit 5",
         #"SELECT artist.name AS artist, count:(title) AS n FROM Album WHERE genre != nil GROUP BY artist.name HAVING n > 1 SORT BY n DESC LIMIT 5"#),
    ]

    @Test(arguments: canonical)
    func parsesToCanonicalForm(_ input: String, _ expected: String) throws {
        let statement = try FetchStatement(parsing: input)
        #expect(statement.description == expected)
        #expect(try FetchStatement(parsing: statement.description) == statement)
    }

    @Test func anEntityIsWrittenOutNotBound() {
        #expect(throws: ParseError.self) { try FetchStatement(parsing: "%K WHERE a == 1", arguments: ["Movie"]) }
    }

    @Test func argumentsBindInOrder() throws {
        let s = try FetchStatement(parsing: "Movie WHERE %K BEGINSWITH[cd] %@ SORT BY %K DESC LIMIT %d OFFSET %d",
                                   arguments: ["title", "Star", "popularity", 3, 1])
        #expect(s.description == #"FETCH Movie WHERE title BEGINSWITH[cd] "Star" SORT BY popularity DESC LIMIT 3 OFFSET 1"#)
        #expect(s.limit == 3 && s.offset == 1)
        #expect(s.sort == [FetchStatement.SortItem(keyPath: "popularity", ascending: false)])
    }

    /// LIMIT and OFFSET take any non-negative 64-bit integer (issue 13: 2147483648 was refused).
    @Test(arguments: [("Note LIMIT 2147483648", 2147483648, nil), ("Note LIMIT 9223372036854775807 OFFSET 9223372036854775807", Int.max, Int.max),
                      ("Note OFFSET 4294967296", nil, 4294967296), ("SELECT title FROM Note LIMIT 2147483648", 2147483648, nil)]
          as [(String, Int?, Int?)])
    func limitsTakeAnyNonNegative64BitInteger(_ input: String, _ limit: Int?, _ offset: Int?) throws {
        let statement = try FetchStatement(parsing: input)
        #expect(statement.limit == limit && statement.offset == offset)
        #expect(try FetchStatement(parsing: statement.description) == statement)
        let bound = try FetchStatement(parsing: "Note LIMIT %d OFFSET %d", arguments: [Int64.max, 3_000_000_000])
        #expect(bound.limit == Int.max && bound.offset == 3_000_000_000)
    }

    static let errors: [(String, String, Int, String?)] = [
        ("Note LIMIT 9223372036854775808", "LIMIT takes a non-negative integer", 12, nil),
        ("Note OFFSET -9223372036854775808", "OFFSET takes a non-negative integer", 13, nil),
        ("", "expected FETCH, COUNT, SELECT or an entity name", 1, nil),
        ("Note WHERE", "ends where an expression was expected", 11, nil),
        ("Note SORTT BY title", "expected WHERE, SORT BY", 6, "SORT"),
        ("Note LIMIT 2 SORT BY title", "SORT cannot come here", 14, "SORT"),
        ("Note SORT title", "expected BY after SORT or ORDER", 11, nil),
        ("Note SORT BY title USING caseInsensitveCompare", "expected a comparator after USING", 26, "caseInsensitiveCompare"),
        ("Note LIMIT -1", "LIMIT takes a non-negative integer", 12, nil),
        ("Note LIMIT 'x'", "LIMIT takes a non-negative integer", 12, nil),
        ("Note SORT BY title + 1", "SORT BY takes a key path", 14, nil),
        ("COUNT Note SORT BY title", "SORT cannot come here", 12, nil),
        ("SELECT title Note", "expected FROM after the SELECT list", 14, nil),
        ("Note WHERE title", "a bare expression is not a predicate", 12, nil),
        ("Note WHERE a == %@", "no argument for %@", 17, nil),
    ]

    @Test(arguments: errors)
    func errorsPointAtTheColumn(_ input: String, _ message: String, _ column: Int, _ suggestion: String?) {
        do {
            _ = try FetchStatement(parsing: input)
            Issue.record("parsed: \(input)")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.column == column, "\(error.message)")
            if let suggestion { #expect(error.suggestion == suggestion) }
        }
    }
}
