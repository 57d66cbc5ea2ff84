import Testing
@testable import SiftLanguage

/// The language's operator tables agree with one another: the keyword table (``Keyword``), the
/// comparison operators, the CAST types and the collection operators, and what is derived from
/// them (input completeness, the parser's lookups).
@Suite struct OperatorCatalogueTests {
    /// A comparison operator spelt as a word is the keyword of that spelling, which names it;
    /// one spelt with symbols is no keyword.
    @Test(arguments: ComparisonOperator.allCases)
    func everyWordOperatorIsTheKeywordThatNamesIt(_ op: ComparisonOperator) {
        let keyword = Keyword.allCases.first { $0.spelling == op.symbol }
        if op.symbol.allSatisfy({ $0.isLetter || $0 == "-" }) {
            #expect(keyword != nil, "\(op.symbol) has no keyword")
            #expect(keyword?.comparisonOperator == op)
        } else {
            #expect(keyword == nil)
        }
    }

    /// Every comparison operator is read as itself, in any case (the word operators through the
    /// keyword table, the hyphenated UTI ones too).
    @Test(arguments: ComparisonOperator.allCases)
    func everyOperatorParsesInAnyCase(_ op: ComparisonOperator) throws {
        let right = op == .between ? "{1, 2}" : "b"
        for spelling in [op.symbol, op.symbol.lowercased()] {
            let predicate = try PredicateNode(format: "a \(spelling) \(right)")
            guard case .comparison(let comparison) = predicate.kind else {
                Issue.record("'a \(spelling) \(right)' read as \(predicate)")
                continue
            }
            #expect(comparison.operator == op)
        }
    }

    /// The hyphenated keywords all begin with `UTI`, the only word the lexer reads on past a hyphen.
    @Test func hyphenatedKeywordsBeginWithUTI() {
        let hyphenated = Keyword.allCases.filter { !$0.isOneWord }
        #expect(!hyphenated.isEmpty)
        #expect(hyphenated.allSatisfy { $0.spelling.hasPrefix("UTI-") })
        #expect(Keyword.hyphenatedTails.map(\.keyword) == hyphenated)
    }

    /// A keyword names the comparison operator of its own spelling, or none.
    @Test(arguments: Keyword.allCases)
    func aKeywordNamesOnlyTheOperatorItSpells(_ keyword: Keyword) {
        let spelt = ComparisonOperator(rawValue: keyword.spelling)
        #expect(keyword.comparisonOperator == spelt)
    }

    /// Input that ends in a word operator, a qualifier or a connective is unfinished (the REPL
    /// reads on).
    @Test(arguments: Keyword.allCases.filter { $0.comparisonOperator != nil } + [.and, .or, .not, .any, .all, .some, .none])
    func inputEndingInAnOperatorIsUnfinished(_ keyword: Keyword) {
        #expect(InputCompleteness.isUnfinished("Note WHERE a \(keyword.spelling)"))
    }

    /// Every CAST type is read in any case, and the cast carries the type's own name.
    @Test(arguments: CastType.allCases)
    func everyCastTypeParses(_ type: CastType) throws {
        let predicate = try PredicateNode(format: "CAST(x, \"\(type.name.lowercased())\") != nil")
        guard case .comparison(let comparison) = predicate.kind, case .cast(_, let name) = comparison.left.kind else {
            Issue.record("CAST to \(type.name) read as \(predicate)")
            return
        }
        #expect(name == type.name)
        #expect(CastType(name: name) == type)
    }

    /// Every collection operator is read as a key of a key path, and names itself.
    @Test(arguments: CollectionOperator.allCases)
    func everyCollectionOperatorIsAKey(_ op: CollectionOperator) throws {
        let predicate = try PredicateNode(format: "items.\(op.key).price != nil")
        guard case .comparison(let comparison) = predicate.kind, case .keyPath(nil, let keys) = comparison.left.kind else {
            Issue.record("\(op.key) read as \(predicate)")
            return
        }
        #expect(keys == ["items", op.key, "price"])
        #expect(CollectionOperator(key: keys[1]) == op)
        #expect("\(op)" == op.key)
    }

    /// A statement word is found whatever its case, and only by its spelling.
    @Test(arguments: StatementWord.allCases)
    func statementWordsAreFoundInAnyCase(_ word: StatementWord) {
        #expect(StatementWord(spelling: word.spelling.lowercased()) == word)
        #expect(StatementWord(spelling: word.spelling + "X") == nil)
    }
}
