import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// Key paths across several to-many steps, on data made to tell the evaluator's rules apart
/// (shared by the SQLite and PostgreSQL tests): an object reached along two paths counts twice,
/// a to-one step that reaches nil inside a path is one nil element, an empty collection none,
/// and a to-one step before the first to-many one that reaches nil makes the whole value nil.
///
/// Authors write books (a to-many held by the books' column) and shelve books in order (an
/// ordered join table); books have tags (an unordered join table). Author a4 writes nothing,
/// a3's shelf is empty; book b3 has no author and no tags, b6 no author; tag t3 is on no book.
enum MultiHopFixture {
    static let json = #"""
    {"name": "Shelves", "entities": [
      {"name": "Book",
       "attributes": [{"name": "title", "type": "String", "optional": false}, {"name": "year", "type": "Integer 64"},
                      {"name": "price", "type": "Double"}],
       "relationships": [
         {"name": "author", "destination": "Author", "inverse": "books"},
         {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "books"},
         {"name": "shelvedBy", "destination": "Author", "toMany": true, "inverse": "shelf"}]},
      {"name": "Author",
       "attributes": [{"name": "name", "type": "String", "optional": false}],
       "relationships": [
         {"name": "books", "destination": "Book", "toMany": true, "inverse": "author"},
         {"name": "shelf", "destination": "Book", "toMany": true, "ordered": true, "inverse": "shelvedBy"}]},
      {"name": "Tag",
       "attributes": [{"name": "name", "type": "String", "optional": false}],
       "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "tags"}]}
    ]}
    """#

    static func model() throws -> DataModel { try JSONModelFormat.read(Data(json.utf8)) }

    /// The same objects in any store.
    static func fill(_ store: any PersistentStore) throws {
        for a in 0..<5 { try store.insert("Author", id: ObjectID("a\(a)"), ["name": .string("Author \(a)")]) }
        for t in 0..<4 { try store.insert("Tag", id: ObjectID("t\(t)"), ["name": .string("Tag \(t)")]) }
        let books: [(author: Int?, tags: [Int], year: Int64?, price: Double?)] = [
            (0, [0, 1], 1970, 9.5), (0, [1], 1984, 0.1), (1, [0, 1, 2], 1999, 0.2), (nil, [], 1955, nil),
            (1, [2], nil, 3.25), (2, [0], 2001, 1e16), (nil, [1, 2], 1960, 1.0), (2, [], 1990, -1e16),
        ]
        for (b, book) in books.enumerated() {
            var relationships: [String: [ObjectID]] = ["tags": book.tags.map { ObjectID("t\($0)") }]
            if let author = book.author { relationships["author"] = [ObjectID("a\(author)")] }
            var attributes: [String: Value] = ["title": .string("Book \(b)")]
            if let year = book.year { attributes["year"] = .int(year) }
            if let price = book.price { attributes["price"] = .double(price) }
            try store.insert("Book", id: ObjectID("b\(b)"), attributes, relationships: relationships)
        }
        // Shelves in an order of their own, a book on two shelves, one shelf empty.
        let shelves: [[Int]] = [[5, 3, 0], [6, 2, 5, 1], [7, 4], []]
        for (a, shelf) in shelves.enumerated() {
            try store.update(ObjectID("a\(a)"), attributes: [:], relationships: ["shelf": shelf.map { ObjectID("b\($0)") }])
        }
        try store.save()
    }

    /// Fetches whose key paths cross several to-many steps; each runs entirely in SQL (in the
    /// SQLite store) and must give the evaluator's answer.
    static let statements: [String] = [
        // Qualifiers and implicit ANY, through to-one steps that may reach nil.
        "Author WHERE ANY books.tags.name == 'Tag 2'",
        "Author WHERE ALL books.tags.name != 'Tag 1'",
        "Author WHERE NONE books.tags.books.title == 'Book 6'",
        "Author WHERE books.tags.books.author.name == 'Author 2'",
        "Tag WHERE ANY books.author.books.title == nil",
        "Tag WHERE ALL books.author.books.year > 1965",
        "Tag WHERE NONE books.author.books.year == nil",
        "Tag WHERE books.author.books.title != 'Book 0'",
        "Book WHERE author.books.tags.name == 'Tag 0'",
        "Book WHERE author.books.tags.name != 'Tag 0'",
        "Book WHERE ANY shelvedBy.shelf.tags.name == 'Tag 2'",
        "Book WHERE ALL tags.books.shelvedBy.name != 'Author 1'",
        // Membership.
        "Author WHERE 'Tag 1' IN books.tags.name",
        "Author WHERE books.tags.name CONTAINS 'Tag 0'",
        "Author WHERE %@ IN books.tags",
        "Tag WHERE nil IN books.author.books.year",
        "Book WHERE title IN tags.books.shelvedBy.shelf.title",
        // Collection operators: every path counts, nil elements included in @count.
        "Author WHERE books.tags.@count == 4",
        "Author WHERE books.tags.books.@count >= 6",
        "Tag WHERE books.author.books.@count == 5",
        "Tag WHERE books.author.books.@sum.year > 7900",
        "Tag WHERE books.author.books.@avg.price > 1",
        "Tag WHERE books.author.books.@min.year == 1970",
        "Author WHERE shelf.tags.books.@max.title == 'Book 6'",
        // A sum of doubles in the flattened collection's order: 9.5 + 0.1 + 0.2 + 3.25 + 1e16 - 1e16.
        "Tag WHERE books.author.books.@sum.price == 14",
        "Author WHERE sum:(shelf.tags.books.year) > 10000",
        "Author WHERE shelf.tags.books[SIZE] > 5",
        // Elements by place, in the flattened collection's order.
        "Author WHERE shelf.tags[FIRST].name == 'Tag 0'",
        "Author WHERE shelf.tags[LAST].name == 'Tag 2'",
        "Author WHERE shelf.tags.books[3].title == 'Book 0'",
        // SUBQUERY over several steps, and nested.
        "Author WHERE SUBQUERY(books.tags, $t, $t.name == 'Tag 1').@count >= 2",
        "Tag WHERE SUBQUERY(books.author.books, $b, $b == nil).@count > 0",
        "Author WHERE SUBQUERY(shelf.tags, $t, SUBQUERY($t.books.shelvedBy, $a, $a.name == 'Author 2').@count > 0).@count > 1",
        // Sorting by an operator across several steps.
        "Author SORT BY books.tags.@count DESC, name",
        "Tag SORT BY books.author.books.@count, name",
    ]

    /// Properties across several to-many steps (one row per object, or grouped by a count), with
    /// the evaluator's values.
    static let selects: [String] = [
        "SELECT name, books.tags.@count AS n, books.tags.books.@count AS m FROM Author",
        "SELECT name, books.author.books.@count AS n, books.author.books.@max.year AS latest FROM Tag SORT BY name",
        "SELECT books.tags.@count AS n, count:(name) AS authors FROM Author GROUP BY books.tags.@count",
        "SELECT books.author.books.@count AS n, count:(name) AS tags FROM Tag GROUP BY books.author.books.@count",
    ]

    /// The argument of the statements with `%@`.
    static let argument = ObjectID("t2")

    static func request(_ statement: String) throws -> FetchRequest {
        try FetchRequest(statement: statement, arguments: statement.contains("%@") ? [argument] : [])
    }

    /// A result as text, to compare stores: object IDs in order, or rows.
    static func text(_ result: FetchResult) -> String {
        switch result {
        case .objects(let objects): return objects.map { $0.objectID.rawValue }.joined(separator: " ")
        case .objectIDs(let ids): return ids.map(\.rawValue).joined(separator: " ")
        case .dictionaries(let rows):
            return rows.map { row in row.pairs.map { "\($0.0)=\(ValueText.text($0.1))" }.joined(separator: " ") }.joined(separator: "\n")
        case .count(let n): return "count \(n)"
        }
    }
}
