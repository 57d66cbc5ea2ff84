import Foundation
import Testing
@testable import SiftLanguage

/// Keeps `Grammar/statement.ebnf` honest, as ``GrammarTests`` does predicate.ebnf: the file is
/// read together with predicate.ebnf (whose rules it uses); every syntactic rule of it has an
/// example; each example is a sentence of `statement` that uses its rule, and parses with the
/// statement parser of each kind of statement the grammar says it is (a fetch, count or select
/// statement; an update statement; a delete statement), printing back to a statement that
/// parses to the same statement and prints the same.
@Suite("Grammar/statement.ebnf")
struct StatementGrammarTests {
    static let grammarFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SiftLanguageTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package root
        .appendingPathComponent("Grammar")

    static let startRule = "statement"

    /// The statement words the parsers know (case-insensitive there; upper-case in the file):
    /// the table every list of them derives from, which must hold the grammar's words, no more.
    static let statementWords = Set(StatementWord.allCases.map(\.spelling))

    static func source(_ name: String) throws -> String {
        try String(contentsOf: grammarFolder.appendingPathComponent(name), encoding: .utf8)
    }

    /// predicate.ebnf and statement.ebnf as one grammar, and statement.ebnf's own rule names and examples.
    static func load() throws -> (grammar: EBNFGrammar, statementRules: [String], examples: [EBNFGrammar.Example]) {
        let statementSource = try source("statement.ebnf")
        var reader = EBNFReader(source: statementSource)
        let (rules, examples) = try reader.readGrammar()
        let grammar = try EBNFGrammar(source: try source("predicate.ebnf") + "\n" + statementSource)
        return (grammar, rules.map(\.name), examples)
    }

    @Test func grammarFileIsWellFormed() throws {
        let (grammar, statementRules, _) = try Self.load()
        let start = try #require(grammar.index(of: Self.startRule))
        let unreachable = Set(grammar.unreachableRules(from: start))
        #expect(unreachable.isDisjoint(with: statementRules), "rules of statement.ebnf not reachable from 'statement': \(unreachable.intersection(statementRules).sorted())")
        // Upper-case terminals are statement words or reserved words (a misspelt "WHRE" would
        // silently be a terminal of its own).
        let reserved = Set(Keyword.allCases.map(\.spelling))
        var words = Set<String>()
        func collect(_ node: EBNFGrammar.Node) {
            switch node {
            case .terminal(let t):
                if t.scalars.count >= 2, t.scalars.allSatisfy({ ("A"..."Z").contains($0) }) { words.insert(t.text) }
            case .range, .rule: break
            case .sequence(let nodes), .choice(_, let nodes): nodes.forEach(collect)
            case .optional(let n), .repetition(let n): collect(n)
            case .exception(let a, let b): collect(a); collect(b)
            }
        }
        for name in statementRules { collect(grammar.rules[try #require(grammar.index(of: name))].body) }
        let unknown = words.subtracting(Self.statementWords).subtracting(reserved)
        #expect(unknown.isEmpty, "upper-case terminals that are not statement words: \(unknown.sorted())")
        #expect(Self.statementWords.subtracting(words).isEmpty, "statement words missing from the grammar: \(Self.statementWords.subtracting(words).sorted())")
    }

    @Test func examplesParseRoundTripAndBelongToTheGrammar() throws {
        let (grammar, statementRules, examples) = try Self.load()
        let start = try #require(grammar.index(of: Self.startRule))
        let productions = Set(examples.map(\.production))
        let withoutExamples = statementRules.filter { name in
            grammar.index(of: name).map { !grammar.rules[$0].isLexical } == true && !productions.contains(name)
        }
        #expect(withoutExamples.isEmpty, "syntactic rules of statement.ebnf without an example: \(withoutExamples)")
        let kinds: [(rules: [String], parse: (String, [Any?]) throws -> (String, (String) throws -> String))] = [
            (["fetch-statement", "count-statement", "select-statement"], { text, arguments in
                let s = try FetchStatement(parsing: text, arguments: arguments)
                return (s.description, { text in
                    let again = try FetchStatement(parsing: text)
                    return again == s ? again.description : "a different statement: \(again)"
                })
            }),
            (["update-statement"], { text, arguments in
                let s = try UpdateStatement(parsing: text, arguments: arguments)
                return (s.description, { text in
                    let again = try UpdateStatement(parsing: text)
                    return again == s ? again.description : "a different statement: \(again)"
                })
            }),
            (["delete-statement"], { text, arguments in
                let s = try DeleteStatement(parsing: text, arguments: arguments)
                return (s.description, { text in
                    let again = try DeleteStatement(parsing: text)
                    return again == s ? again.description : "a different statement: \(again)"
                })
            }),
        ]
        var rng = GrammarRNG(seed: GrammarTests.seed)
        for example in examples {
            let place = "statement.ebnf line \(example.line), example for \(example.production): \(example.sentence)"
            var recognizer = EBNFRecognizer(grammar: grammar, input: example.sentence)
            let accepted = recognizer.accepts(rule: start)
            guard accepted else {
                Issue.record("not a sentence of the grammar: \(place)")
                continue
            }
            if let rule = grammar.index(of: example.production), !recognizer.contains(rule: rule) {
                Issue.record("does not use \(example.production): \(place)")
            }
            let arguments = Self.arguments(for: GrammarArguments.specifiers(in: example.sentence), using: &rng)
            var parsedAs = 0
            for kind in kinds {
                let indices = kind.rules.compactMap { grammar.index(of: $0) }
                guard indices.contains(where: { recognizer.accepts(rule: $0) }) else { continue }
                parsedAs += 1
                do {
                    let (canonical, reparse) = try kind.parse(example.sentence, arguments)
                    let printedAgain = try reparse(canonical)
                    #expect(printedAgain == canonical, "\(place)\n  canonical: \(canonical)\n  reparsed:  \(printedAgain)")
                    var canonicalRecognizer = EBNFRecognizer(grammar: grammar, input: canonical)
                    let canonicalAccepted = canonicalRecognizer.accepts(rule: start)
                    #expect(canonicalAccepted, "the canonical form is not a sentence of the grammar: \(canonical)")
                } catch let error as ParseError {
                    Issue.record("\(place)\n  arguments: \(GrammarArguments.describe(arguments))\n\(error.rendered())")
                }
            }
            #expect(parsedAs > 0, "no statement rule accepts \(place)")
        }
    }

    /// Arguments for an example's specifiers: `%d` a small count (LIMIT and OFFSET take
    /// non-negative integers), `%K` a key path, `%@` any value.
    static func arguments(for specifiers: [String], using rng: inout GrammarRNG) -> [Any?] {
        specifiers.map { specifier -> Any? in
            switch specifier {
            case "%d": rng.below(50)
            case "%K": ["title", "artist.name", "tags.@count", "size"][rng.below(4)]
            default: GrammarArguments.arguments(for: [specifier], using: &rng)[0]
            }
        }
    }
}
