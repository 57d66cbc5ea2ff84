import Foundation
import Sift
import Testing
@testable import SiftCLI

/// What completion offers follows the language's tables: every reserved word (``Keyword``),
/// every statement word (``StatementWord``) and what the grammar puts after it, the string
/// comparators and the collection operators.
@Suite struct CompletionCatalogueTests {
    static func offered(_ line: String) throws -> [String] {
        try CompletionTests.session().completions(for: line, cursor: line.count)
    }

    /// Every keyword is offered where an operator may come, but the hyphenated UTI operators.
    @Test(arguments: Keyword.allCases)
    func everyKeywordIsOffered(_ keyword: Keyword) throws {
        let spelling = keyword.spelling
        let offered = try Self.offered("Note WHERE title == 'a' " + spelling.dropLast())
        #expect(offered.contains(spelling) == !spelling.contains("-"), "\(offered)")
    }

    /// Every statement word is offered there too, but the long ASCENDING and DESCENDING.
    @Test(arguments: StatementWord.allCases)
    func everyStatementWordIsOffered(_ word: StatementWord) throws {
        let offered = try Self.offered("Note WHERE title == 'a' " + word.spelling.dropLast())
        #expect(offered.contains(word.spelling) == (word != .ascending && word != .descending), "\(offered)")
    }

    /// After each statement word comes what ``StatementWord/next`` says.
    @Test(arguments: StatementWord.allCases)
    func afterEachStatementWordWhatTheGrammarPutsThere(_ word: StatementWord) throws {
        let offered = Set(try Self.offered("Note WHERE title == 'a' \(word.spelling) "))
        switch word.next {
        case .entity?:
            #expect(offered.isSuperset(of: ["Category", "Note", "Tag"]))
            #expect(offered.contains("title") == false)
            #expect(offered.contains("FROM") == (word == .delete))
        case .keyPath?:
            #expect(offered == ["category", "contents", "createdAt", "tags", "title", "updatedAt"])
        case .comparator?:
            #expect(offered == Set(StringComparator.allCases.map(\.rawValue)))
        case .nameOrNumber?:
            #expect(offered.isEmpty)
        case nil:
            #expect(offered.isSuperset(of: ["AND", "BEGINSWITH", "WHERE", "title"]))
        }
    }

    /// The aggregating collection operators after a to-many relationship.
    @Test func collectionOperatorsAfterAToManyRelationship() throws {
        let offered = try Self.offered("Note WHERE tags.@")
        #expect(Set(offered) == Set(CollectionOperator.allCases.filter(\.isAggregate).map { "tags." + $0.key }))
        #expect(!offered.isEmpty)
    }
}
